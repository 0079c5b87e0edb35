import type { CompanyRow } from '../../../db/schema.ts';
import { badRequest } from '../../../http/errors.ts';
import type { CheckTypeDefinition, CreatePlan, Outcome } from '../../check-type.ts';
import { processAfter } from '../../engine/queues.ts';
import { emptyReview, reviewNeeded } from '../../review-data.ts';
import { resolveSettings } from '../../settings.ts';
import type { OnlineReputationProvider, ReputationCompany, ReputationRisk } from './provider.ts';
import { sandboxOnlineReputationProvider } from './sandbox-provider.ts';
import { OnlineReputationCreateBody, OnlineReputationData } from './schemas.ts';
import { ONLINE_REPUTATION_TRANSITIONS } from './transitions.ts';

/** Settings are not part of the API (no settings object, none in the workspace settings): one vendor. */
const DEFAULTS = { vendor: 'online_reputation_provider_1' };
const PROVIDERS: Record<string, OnlineReputationProvider> = {
  online_reputation_provider_1: sandboxOnlineReputationProvider,
};

/** Why an analysis approved the check by itself (data.review.comment, reviewer `system`). */
export const APPROVAL_COMMENT =
  'Approved automatically: the online reputation analysis found a low or moderate risk';

/** Readings that approve automatically; every other reading, or none, goes to review. */
const APPROVING: ReadonlySet<ReputationRisk> = new Set(['low', 'moderate']);

function companyInfo(c: CompanyRow) {
  return {
    name: c.name,
    commercial_name: c.commercial_name,
    country: c.country,
    registration_number: c.registration_number,
    website_url: c.website_url,
  };
}

function providerInput(c: CompanyRow): ReputationCompany {
  const address = (c.address ?? {}) as Record<string, string | null>;
  const activities = ((c.classifications ?? []) as { code?: string; description?: string | null }[])
    .map((k) => k.description ?? k.code ?? '')
    .filter(Boolean);
  return {
    ...companyInfo(c),
    legal_form: c.legal_form,
    registration_date: c.registration_date,
    city: address.city ?? null,
    activities,
  };
}

export const onlineReputationCheck: CheckTypeDefinition = {
  type: 'online_reputation',
  docs: {
    title: 'Online reputation',
    about: 'Looks for adverse media about a company and reports what was found for review.',
  },
  targets: ['company'],
  isInternal: true,
  createBody: OnlineReputationCreateBody,
  dataSchema: OnlineReputationData,
  transitions: ONLINE_REPUTATION_TRANSITIONS,

  async create({ ctx, target, workspaceTypeSettings }): Promise<CreatePlan> {
    if (target.kind !== 'company')
      throw badRequest('online_reputation checks target companies only', 'individual_id');
    const settings = resolveSettings(DEFAULTS, workspaceTypeSettings, undefined);
    if (!PROVIDERS[settings.vendor])
      throw badRequest(`Unknown online_reputation vendor ${settings.vendor} in the workspace settings`);
    return {
      status: 'processing',
      data: {
        result: null,
        review: emptyReview(),
        information: { report: null, summary: null, sources: [], company: companyInfo(target.row) },
      },
      internal: {
        settings,
        vendor: { name: settings.vendor, started_at: new Date().toISOString(), ended_at: null },
        risk: null,
        reading: 'pending',
      },
      process: processAfter(ctx),
    };
  },

  beforeReview(check) {
    // a decision taken before the analysis ends stands on nothing, and keeps no report: the
    // analysis's result is dropped for a check no longer processing (a walk approved one at once
    // and it never got its report). It takes a moment; the review waits for it, as aml's does.
    if (check.status === 'processing') {
      throw badRequest(
        'The check is still being analysed: review it once the analysis has ended (Check.Approved or Check.ReviewNeeded, or its status)',
        'status',
      );
    }
  },

  async process({ check, target }): Promise<Outcome> {
    if (target.kind !== 'company') throw new Error(`online_reputation check ${check.id} targets a company`);
    const internal = check.internal as {
      settings: { vendor: string };
      vendor: Record<string, unknown>;
    };
    const provider = PROVIDERS[internal.settings?.vendor] ?? sandboxOnlineReputationProvider;
    const analysis = await provider.analyze(providerInput(target.row));
    const approved = analysis.risk !== null && APPROVING.has(analysis.risk);
    const data = check.data as Record<string, unknown>;
    return {
      trigger: 'analysis_ends',
      status: approved ? 'approved' : 'need_review',
      data: {
        ...data,
        // need_review: no decision yet, so no result (the spec's result values are decisions)
        result: approved ? 'approved' : null,
        // the type has no settings: the comment names the spec's rule, not an automatic_approval
        // setting (an approval already tells that the risk was low or moderate, nothing more)
        review: approved
          ? {
              comment: APPROVAL_COMMENT,
              reviewed_at: new Date().toISOString(),
              reviewer_type: 'system',
              user: null,
            }
          : reviewNeeded(
              analysis.risk === null || analysis.risk === 'inconclusive'
                ? 'the online reputation analysis could not rate the risk'
                : `the online reputation analysis rated the risk ${analysis.risk}`,
            ),
        information: {
          report: analysis.report,
          summary: analysis.summary,
          sources: analysis.sources,
          company: companyInfo(target.row),
        },
      },
      internal: {
        ...internal,
        vendor: { ...internal.vendor, ended_at: new Date().toISOString() },
        risk: analysis.risk,
        reading: analysis.risk === null ? 'none' : 'received',
      },
    };
  },
};
