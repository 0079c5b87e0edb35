import { ApiError, badRequest } from '../../../http/errors.ts';
import { fullAddress } from '../../../shared/address.ts';
import type { CheckTypeDefinition, CreatePlan } from '../../check-type.ts';
import { emptyReview, reviewNeeded } from '../../review-data.ts';
import { resolveSettings } from '../../settings.ts';
import { EKYC_COUNTRIES } from './countries.ts';
import { computeFraudSignals } from './fraud-signals.ts';
import { sandboxEkycProvider } from './sandbox-provider.ts';
import { EkycCreateBody, EkycData } from './schemas.ts';
import { EKYC_TRANSITIONS } from './transitions.ts';

const DEFAULTS = { vendor: 'ekyc_provider_1', automatic_approval: true, automatic_rejection: true };
const PROVIDERS = { ekyc_provider_1: sandboxEkycProvider };

/**
 * Verification profiles per country. Unset (null), every supported country uses the sandbox
 * profile; a workspace that sets `checks.ekyc.profiles` verifies only the countries it lists.
 */
function profileFor(workspace: Record<string, unknown>, country: string) {
  const profiles = workspace.profiles as
    | Record<string, { profile_id: string; profile_name?: string }>
    | null
    | undefined;
  if (profiles == null)
    return { profile_id: `sandbox-${country.toLowerCase()}`, profile_name: `Sandbox ${country}` };
  const p = profiles[country];
  return p ? { profile_id: p.profile_id, profile_name: p.profile_name ?? null } : null;
}

/** `data.ai.interpretation`; exported for the console's test (it rewords exactly these sentences). */
export function interpretation(decision: string, country: string, score: number): string {
  if (decision === 'match')
    return `The declared identity matches the data sources for ${country} (score ${score}/100).`;
  if (decision === 'inconsistent')
    return `The declared identity contradicts the data sources for ${country} (score ${score}/100): at least one attribute differs.`;
  return `The data sources for ${country} could not confirm or contradict the declared identity (score ${score}/100).`;
}

export const ekycCheck: CheckTypeDefinition = {
  type: 'ekyc',
  docs: {
    title: 'eKYC',
    about:
      "Verifies an individual's identity data (name, birth date, address, phone, e-mail) with a data provider, and reports fraud signals.",
  },
  targets: ['individual'],
  isInternal: true,
  createBody: EkycCreateBody,
  dataSchema: EkycData,
  transitions: EKYC_TRANSITIONS,
  async create({ target, body, workspaceTypeSettings }): Promise<CreatePlan> {
    if (target.kind !== 'individual') throw badRequest('eKYC targets individuals', 'individual_id');
    const person = target.row;
    const address = fullAddress(person.address);
    // every missing attribute at once: one round trip to fix the individual, not one per field
    const missing = (
      [
        ['first_name', person.first_name],
        ['last_name', person.last_name],
        ['birth_date', person.birth_date],
        ['address.country', address.country],
      ] as const
    )
      // a name of blanks is no name to verify
      .filter(([, value]) => !value || (typeof value === 'string' && !value.trim()))
      .map(([field]) => field);
    if (missing.length) {
      const one = (field: string) =>
        `The individual has no ${field}: eKYC needs it; set it on the individual first`;
      throw new ApiError(
        400,
        missing.length === 1
          ? one(missing[0])
          : `The individual has no ${missing.join(', ')}: eKYC needs them; set them on the individual first`,
        missing.map((path) => ({ path, message: one(path) })),
      );
    }
    const country = address.country as string;
    if (!EKYC_COUNTRIES.has(country)) {
      throw badRequest(
        `eKYC does not cover ${country}; supported: ${[...EKYC_COUNTRIES].join(' ')}`,
        'address.country',
      );
    }
    const profile = profileFor(workspaceTypeSettings, country);
    if (!profile)
      throw badRequest(`The workspace has no eKYC verification profile for ${country}`, 'address.country');
    const settings = resolveSettings(DEFAULTS, workspaceTypeSettings, body.settings);
    const provider = PROVIDERS[settings.vendor as keyof typeof PROVIDERS];
    const { decision, score } = await provider.verify(
      {
        first_name: person.first_name,
        last_name: person.last_name,
        birth_date: person.birth_date as string,
        country,
        address,
      },
      profile,
    );
    const status =
      decision === 'match'
        ? settings.automatic_approval
          ? 'approved'
          : 'need_review'
        : decision === 'inconsistent' && settings.automatic_rejection
          ? 'rejected'
          : 'need_review';
    const decided = status === 'approved' || status === 'rejected';
    const information = {
      first_name: person.first_name,
      last_name: person.last_name,
      birth_date: person.birth_date,
      address,
    };
    const vendor = {
      name: provider.name,
      profile_id: profile.profile_id,
      profile_name: profile.profile_name,
      country,
    };
    return {
      status,
      // what its Check.Started shows: the identity sent, nothing the provider answered yet
      startedData: {
        result: null,
        decision: null,
        settings,
        vendor: { ...vendor, score: null },
        review: emptyReview(),
        information,
        ai: { interpretation: null },
        fraud_signals: null,
      },
      data: {
        result: decided ? status : null,
        decision,
        settings,
        vendor: { ...vendor, score },
        review: decided
          ? { comment: null, reviewed_at: new Date().toISOString(), reviewer_type: 'system', user: null }
          : decision === 'match'
            ? reviewNeeded(
                `the data sources for ${country} match the declared identity`,
                'automatic_approval',
              )
            : decision === 'inconsistent'
              ? reviewNeeded(
                  `the data sources for ${country} contradict the declared identity`,
                  'automatic_rejection',
                )
              : reviewNeeded(`the data sources for ${country} could not confirm the declared identity`),
        information,
        ai: { interpretation: interpretation(decision, country, score) },
        fraud_signals: computeFraudSignals({
          email: person.email,
          phone_number: person.phone_number,
          country,
        }),
      },
    };
  },
};
