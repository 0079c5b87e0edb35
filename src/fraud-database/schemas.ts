import { Type } from 'typebox';
import { DateTime, NonBlank, Nullable, Uuid } from '../http/common-schemas.ts';
import { IDENTIFIER_KINDS } from './identifiers.ts';

export const IdentifierKind = Type.Enum(IDENTIFIER_KINDS, {
  description: 'email, phone (E.164), iban, registration_number (with the company country), name_birth_date',
});

export const FraudReportCreate = Type.Object({
  individual_id: Type.Optional(Uuid),
  company_id: Type.Optional(Uuid),
  reason: NonBlank({
    maxLength: 2000,
    description:
      'Why the entity is reported (white space only is refused); kept for the reporting workspace only, never shared',
  }),
});

export const FraudReport = Type.Object({
  id: Uuid,
  individual_id: Nullable(Uuid),
  company_id: Nullable(Uuid),
  identifier_kinds: Type.Array(IdentifierKind, {
    description: 'The identifiers of the entity that were hashed into the fraud list',
  }),
  reason: Type.String(),
  created_at: DateTime,
});
