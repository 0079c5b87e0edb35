import { Type } from 'typebox';
import { DateTime, NonBlank, Nullable, Uuid } from '../http/common-schemas.ts';

/** Which entities of a case a template check is created on. */
export const TEMPLATE_TARGETS = [
  'main_company',
  'companies',
  'individuals',
  'beneficial_owners',
  'legal_representatives',
  'business_contacts',
  'signatories',
] as const;
export type TemplateTarget = (typeof TEMPLATE_TARGETS)[number];

export const TemplateCheckIn = Type.Object(
  {
    type: Type.String({
      minLength: 1,
      description: 'An enabled check type (e.g. `ekyc`, `online_reputation`)',
    }),
    targets: Type.Array(Type.Enum(TEMPLATE_TARGETS), {
      minItems: 1,
      uniqueItems: true,
      description:
        'Entities of the case the check is created on: main_company, companies, individuals, ' +
        'beneficial_owners (is_beneficial_owner), legal_representatives (role or relation ' +
        'legal_representative), business_contacts (is_business_contact), signatories (is_signatory)',
    }),
    settings: Type.Optional(
      Type.Record(Type.String(), Type.Any(), { description: "The check type's create settings" }),
    ),
  },
  { additionalProperties: false },
);

const TemplateCheckOut = Type.Object({
  type: Type.String(),
  targets: Type.Array(Type.Enum(TEMPLATE_TARGETS)),
  settings: Type.Record(Type.String(), Type.Any()),
});

const Key = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.:-]*$',
  description: 'Unique in the workspace; letters, digits, `_`, `.`, `:`, `-`',
});
const Name = NonBlank({ maxLength: 180 });
const Description = Nullable(Type.String({ maxLength: 5000 }));
const Checks = Type.Array(TemplateCheckIn, { maxItems: 50 });

export const TemplateCreate = Type.Object(
  {
    key: Key,
    name: Name,
    description: Type.Optional(Description),
    case_auto_approval: Type.Optional(Type.Boolean({ default: false })),
    checks: Type.Optional(Checks),
  },
  { additionalProperties: false },
);

export const TemplateUpdate = Type.Object(
  {
    key: Type.Optional(Key),
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    case_auto_approval: Type.Optional(Type.Boolean()),
    checks: Type.Optional(Checks),
  },
  { additionalProperties: false, minProperties: 1 },
);

/** The reference's Template, plus `checks` (the reference configures them in its console only). */
export const Template = Type.Object({
  id: Uuid,
  name: Type.String(),
  key: Type.String(),
  description: Nullable(Type.String()),
  case_auto_approval: Type.Boolean(),
  checks: Type.Array(TemplateCheckOut),
  created_at: DateTime,
  updated_at: DateTime,
});

export const RunTemplate = Type.Object({
  case_id: Uuid,
  template_key: Type.Optional(Type.String({ minLength: 1, description: 'Changes the case template' })),
  template_id: Type.Optional(
    Type.String({
      format: 'uuid',
      deprecated: true,
      description: 'Prefer template_key. Cannot be set together with template_key.',
    }),
  ),
});

export const TemplateExecution = Type.Object({
  case_id: Uuid,
  company_ids: Type.Array(Uuid, { description: 'Companies on which the run created checks' }),
  individual_ids: Type.Array(Uuid, { description: 'Individuals on which the run created checks' }),
});
