import { Type } from 'typebox';
import { Nullable, Uuid } from '../../../http/common-schemas.ts';
import { CheckReview } from '../../review-data.ts';

/** Companies only, and no settings object (spec: "Create body has only `company_id`"). */
export const OnlineReputationCreateBody = Type.Object(
  { company_id: Uuid },
  { additionalProperties: false, description: 'Targets a company; no settings object.' },
);

const Review = CheckReview;

export const OnlineReputationSource = Type.Object({ title: Type.String(), url: Type.String() });

export const OnlineReputationCompany = Type.Object({
  name: Type.String(),
  commercial_name: Nullable(Type.String()),
  country: Nullable(Type.String()),
  registration_number: Nullable(Type.String()),
  website_url: Nullable(Type.String()),
});

/**
 * The exposed `data`: result, review and information only. The risk reading, the settings and
 * the vendor stay in the check's `internal` column and never reach the API or events.
 */
export const OnlineReputationData = Type.Object({
  result: Nullable(Type.Enum(['approved', 'rejected', 'error'])),
  review: Review,
  information: Type.Object({
    report: Nullable(Type.String({ description: 'The full analysis; null until the analysis ends' })),
    summary: Nullable(Type.String()),
    sources: Nullable(Type.Array(OnlineReputationSource)),
    company: OnlineReputationCompany,
  }),
});
