import { Type } from 'typebox';
import { IdentifierKind } from '../../../fraud-database/schemas.ts';
import { DateTime, Nullable, Uuid } from '../../../http/common-schemas.ts';
import { Address } from '../../../shared/address.ts';
import { CheckReview } from '../../review-data.ts';

export const FRAUD_DATABASE_VENDORS = ['shared_fraud_list'] as const;

const Settings = {
  vendor: Type.Optional(Type.Enum(FRAUD_DATABASE_VENDORS)),
  automatic_approval: Type.Optional(
    Type.Boolean({ description: 'No match approves the check (default true)' }),
  ),
  automatic_rejection: Type.Optional(
    Type.Boolean({ description: 'A match rejects the check instead of asking for a review (default false)' }),
  ),
};

export const FraudDatabaseCreateBody = Type.Object({
  individual_id: Type.Optional(Uuid),
  company_id: Type.Optional(Uuid),
  settings: Type.Optional(Type.Object(Settings)),
});

const Review = CheckReview;

export const FraudDatabaseData = Type.Object({
  result: Nullable(Type.Enum(['approved', 'rejected', 'error'])),
  settings: Type.Object({
    vendor: Type.Enum(FRAUD_DATABASE_VENDORS),
    automatic_approval: Type.Boolean(),
    automatic_rejection: Type.Boolean(),
  }),
  vendor: Type.Object({ name: Type.Enum(FRAUD_DATABASE_VENDORS), search_reference: Nullable(Type.String()) }),
  review: Review,
  information: Type.Object(
    {
      entity_type: Type.Enum(['company', 'individual']),
      first_name: Nullable(Type.String()),
      last_name: Nullable(Type.String()),
      birth_date: Nullable(Type.String()),
      email: Nullable(Type.String({ description: 'Trimmed, lower case' })),
      phone_number: Nullable(Type.String({ description: 'E.164; null when absent or invalid' })),
      company_name: Nullable(Type.String()),
      company_number: Nullable(Type.String({ description: 'Letters and digits only, capitals' })),
      company_country: Nullable(Type.String()),
      vat_number: Nullable(Type.String()),
      iban: Nullable(Type.String({ description: 'Electronic format; null when absent or invalid' })),
      address: Address,
      identifiers_searched: Type.Array(IdentifierKind),
    },
    { description: "What was searched: the entity's own values, normalised as the list compares them" },
  ),
  ai_analysis: Type.Object({ interpretation: Nullable(Type.String()) }),
  matches: Type.Array(
    Type.Object({
      identifier_kinds: Type.Array(IdentifierKind),
      reported_at: DateTime,
      reported_by_this_workspace: Type.Boolean(),
    }),
    {
      description:
        "One item per report holding identifiers of the entity: which kinds matched and when it was reported; never another workspace's case, entity, reason or values",
    },
  ),
});
