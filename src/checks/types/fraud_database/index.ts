import { searchedInformation } from '../../../fraud-database/identifiers.ts';
import { searchFraudList } from '../../../fraud-database/search.ts';
import type { CheckStatus, CheckTypeDefinition, CreatePlan } from '../../check-type.ts';
import { emptyReview, reviewNeeded } from '../../review-data.ts';
import { resolveSettings } from '../../settings.ts';
import { FraudDatabaseCreateBody, FraudDatabaseData } from './schemas.ts';
import { FRAUD_DATABASE_TRANSITIONS } from './transitions.ts';

/** A match asks for a review unless the workspace or the request turns automatic_rejection on. */
const DEFAULTS = { vendor: 'shared_fraud_list', automatic_approval: true, automatic_rejection: false };

function interpretation(searched: string[], matches: { identifier_kinds: string[]; reported_at: string }[]) {
  if (!searched.length)
    return 'The entity has no identifier the fraud list holds: nothing could be searched.';
  if (!matches.length)
    return `No report visible to this workspace holds the identifiers searched (${searched.join(', ')}).`;
  const each = matches.map(
    (m) => `${m.identifier_kinds.join(' and ')} (reported ${m.reported_at.slice(0, 10)})`,
  );
  return `${matches.length} report${matches.length > 1 ? 's' : ''} of the fraud list hold${matches.length > 1 ? '' : 's'} identifiers of this entity: ${each.join('; ')}.`;
}

export const fraudDatabaseCheck: CheckTypeDefinition = {
  type: 'fraud_database',
  docs: {
    title: 'Fraud database',
    about:
      "Searches the workspace's own fraud database for the individual's or the company's identifiers (e-mail, phone, IBAN, registration number...).",
  },
  pathAliases: ['fraud-database'],
  targets: ['individual', 'company'],
  isInternal: true,
  createBody: FraudDatabaseCreateBody,
  dataSchema: FraudDatabaseData,
  transitions: FRAUD_DATABASE_TRANSITIONS,
  async create({
    ctx,
    trx,
    workspaceId,
    target,
    body,
    workspaceTypeSettings,
    workspaceSettings,
  }): Promise<CreatePlan> {
    const settings = resolveSettings(DEFAULTS, workspaceTypeSettings, body.settings);
    const shares = workspaceSettings.fraud_database.share;
    const { searched, matches } = await searchFraudList(ctx, trx, workspaceId, shares, target);
    const status: CheckStatus = !searched.length
      ? 'need_review'
      : matches.length
        ? settings.automatic_rejection
          ? 'rejected'
          : 'need_review'
        : settings.automatic_approval
          ? 'approved'
          : 'need_review';
    const decided = status === 'approved' || status === 'rejected';
    const held = `the fraud list holds ${[...new Set(matches.flatMap((m) => m.identifier_kinds))].join(', ')} of this entity`;
    const comment = decided
      ? matches.length
        ? `Rejected automatically (automatic_rejection): ${held}`
        : 'Approved automatically (automatic_approval): no match in the fraud list'
      : null;
    // why a person must look: the match, no match to approve by hand, or nothing to search
    const pending = !searched.length
      ? reviewNeeded('the entity has no identifier the fraud list holds, so nothing could be searched')
      : matches.length
        ? reviewNeeded(held, 'automatic_rejection')
        : reviewNeeded('no match in the fraud list', 'automatic_approval');
    const vendor = { name: settings.vendor, search_reference: null };
    return {
      status,
      // what its Check.Started shows: what is searched, nothing found yet
      startedData: {
        result: null,
        settings,
        vendor,
        review: emptyReview(),
        information: searchedInformation(target),
        ai_analysis: { interpretation: null },
        matches: [],
      },
      data: {
        result: decided ? status : null,
        settings,
        vendor,
        review: decided
          ? { comment, reviewed_at: new Date().toISOString(), reviewer_type: 'system', user: null }
          : pending,
        information: searchedInformation(target),
        ai_analysis: { interpretation: interpretation(searched, matches) },
        matches,
      },
    };
  },
};
