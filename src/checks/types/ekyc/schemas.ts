import { Type } from 'typebox';
import { Nullable, Uuid } from '../../../http/common-schemas.ts';
import { Address } from '../../../shared/address.ts';
import { CheckReview } from '../../review-data.ts';

export const EKYC_VENDORS = ['ekyc_provider_1'] as const;

export const EkycCreateBody = Type.Object({
  individual_id: Uuid,
  settings: Type.Optional(
    Type.Object({
      vendor: Type.Optional(Type.Enum(EKYC_VENDORS)),
      automatic_approval: Type.Optional(Type.Boolean()),
      automatic_rejection: Type.Optional(Type.Boolean()),
    }),
  ),
});

const Review = CheckReview;

const Network = Nullable(
  Type.Object({ operator: Nullable(Type.String()), country: Nullable(Type.String()) }),
);

export const FraudSignals = Type.Object({
  trust: Nullable(
    Type.Object({
      score: Nullable(Type.Number()),
      band: Nullable(Type.String()),
      triggered_rules: Type.Array(Type.Object({ code: Type.String(), description: Type.String() })),
    }),
  ),
  fraud_score: Nullable(
    Type.Object({
      score: Nullable(Type.Number()),
      band: Nullable(Type.String()),
      labels: Type.Array(Type.String()),
    }),
  ),
  email_verification: Nullable(
    Type.Object({
      risk_score: Nullable(Type.Number()),
      risk_band: Nullable(Type.String()),
      risk_level: Nullable(Type.String()),
      email_first_seen: Nullable(Type.String()),
      domain_first_seen: Nullable(Type.String()),
      domain_country: Nullable(Type.String()),
      mailbox_missing: Nullable(Type.Boolean()),
    }),
  ),
  email_validation: Nullable(
    Type.Object({ address_valid: Nullable(Type.Boolean()), bounce_risk: Nullable(Type.String()) }),
  ),
  mobile_validation: Nullable(
    Type.Object({
      number_valid: Nullable(Type.Boolean()),
      line_type: Nullable(Type.String()),
      current_network: Network,
      original_network: Network,
    }),
  ),
});

export const EkycData = Type.Object({
  result: Nullable(Type.Enum(['approved', 'rejected', 'error'])),
  decision: Nullable(Type.Enum(['match', 'inconclusive', 'inconsistent'])),
  settings: Type.Object({
    vendor: Type.Enum(EKYC_VENDORS),
    automatic_approval: Type.Boolean(),
    automatic_rejection: Type.Boolean(),
  }),
  vendor: Type.Object({
    name: Type.String(),
    profile_id: Type.String(),
    profile_name: Nullable(Type.String()),
    country: Type.String(),
    score: Nullable(Type.Number()),
  }),
  review: Review,
  information: Type.Object({
    first_name: Nullable(Type.String()),
    last_name: Nullable(Type.String()),
    birth_date: Nullable(Type.String()),
    address: Address,
  }),
  ai: Type.Object({ interpretation: Nullable(Type.String()) }),
  fraud_signals: Nullable(FraudSignals),
});
