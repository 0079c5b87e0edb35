import { Type } from 'typebox';
import { Company, NestedCompanyCreate } from '../companies/schemas.ts';
import { CustomProperties, DateOnly, DateTime, Metadata, Nullable, Uuid } from '../http/common-schemas.ts';
import { Individual, NestedIndividualCreate } from '../individuals/schemas.ts';
import { CaseReview } from '../reviews/schemas.ts';
import { Risk } from '../risks/schemas.ts';

export const CASE_STATUSES = ['draft', 'open', 'approved', 'rejected', 'closed'] as const;
export const CaseStatus = Type.Enum(CASE_STATUSES);
export const CASE_FLAGS = [
  'all_checks_approved',
  'for_review',
  'for_first_collect',
  'for_recollection',
  'first_collect_completed',
] as const;

/** A tag label: no list separators, since tag filters take comma-separated values. */
const TagLabel = Type.String({
  format: 'tag-label',
  maxLength: 100,
  description: 'Tag label: not blank, without , ; : | / \\',
});

const TemplateLight = Type.Object({ id: Uuid, name: Type.String(), key: Type.String() });

export const CaseCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 180 }),
  status: Type.Optional(Type.Enum(['draft', 'open'])),
  external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  template_key: Type.Optional(Nullable(Type.String())),
  template_id: Type.Optional(Nullable(Uuid)),
  assignee_id: Type.Optional(Nullable(Type.String())),
  space_slug: Type.Optional(Nullable(Type.String())),
  metadata: Type.Optional(Metadata),
  custom_properties: Type.Optional(CustomProperties),
  tags: Type.Optional(Nullable(Type.Array(TagLabel))),
  companies: Type.Optional(Type.Array(NestedCompanyCreate, { maxItems: 500 })),
  individuals: Type.Optional(Type.Array(NestedIndividualCreate, { maxItems: 500 })),
});

export const CaseUpdate = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 180 })),
  status: Type.Optional(Type.Enum(['draft', 'open'])),
  external_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  template_key: Type.Optional(
    Nullable(
      Type.String({
        description:
          "Sets the case's template and applies it to the case's current entities; null detaches it",
      }),
    ),
  ),
  template_id: Type.Optional(Nullable(Uuid)),
  assignee_id: Type.Optional(Nullable(Type.String())),
  metadata: Type.Optional(Metadata),
  custom_properties: Type.Optional(CustomProperties),
  tags: Type.Optional(Type.Array(TagLabel)),
});

const caseBase = {
  id: Uuid,
  name: Type.String(),
  status: CaseStatus,
  review: Nullable(CaseReview),
  external_id: Nullable(Type.String()),
  assignee_id: Nullable(Type.String()),
  space_slug: Nullable(Type.String()),
  template: Nullable(TemplateLight),
  template_id: Nullable(Uuid),
  contact_has_actions: Type.Boolean(),
  reviewer_has_actions: Type.Boolean(),
  flags: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  risk: Nullable(Risk),
  metadata: Metadata,
  custom_properties: CustomProperties,
  next_review_at: Nullable(DateOnly),
  last_activity_at: DateTime,
  last_contact_action_at: Nullable(DateTime),
  created_at: DateTime,
  updated_at: DateTime,
};

export const Case = Type.Object(caseBase);
export const CaseDetailed = Type.Object({
  ...caseBase,
  companies: Type.Array(Company),
  individuals: Type.Array(Individual),
  controls: Type.Array(Type.Any()),
  assignee: Nullable(Type.Any()),
  client_portal: Nullable(Type.Any()),
});

export const CaseGetQuery = Type.Object({
  include_not_relevant: Type.Optional(Type.Boolean({ default: false })),
  exclude_internal_checks: Type.Optional(Type.Boolean({ default: false })),
  property_origin: Type.Optional(Type.Boolean({ default: false })),
  data_lineage: Type.Optional(Type.Boolean({ default: false })),
});
export const CaseDeleteQuery = Type.Object({ permanent: Type.Optional(Type.Boolean()) });
