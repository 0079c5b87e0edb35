import { Type } from 'typebox';
import { EXCLUDE_INTERNAL_CHECKS_DESCRIPTION } from '../checks/without-internal.ts';
import { Company, NestedCompanyCreate } from '../companies/schemas.ts';
import {
  CustomProperties,
  DateOnly,
  DateTime,
  Metadata,
  NonBlank,
  Nullable,
  Uuid,
} from '../http/common-schemas.ts';
import { Individual, NestedIndividualCreate } from '../individuals/schemas.ts';
import { CaseReview } from '../reviews/schemas.ts';
import { Risk } from '../risks/schemas.ts';
import { NestedUser, NullableNestedUser } from '../users/nested-user.ts';

export const CASE_STATUSES = ['draft', 'open', 'approved', 'rejected', 'closed'] as const;
export const CaseStatus = Type.Enum(CASE_STATUSES);
export const CASE_FLAGS = [
  'all_checks_approved',
  'for_review',
  'for_first_collect',
  'for_recollection',
  'first_collect_completed',
] as const;

/**
 * A case's tag in a create or update body: a tag's id (that tag of the workspace) or a label (found
 * or created). A label has no list separators, since tag filters take comma-separated values.
 */
const TagLabel = Type.String({
  format: 'tag-label',
  maxLength: 100,
  description: "A tag's id, or a tag label: not blank, without , ; : | / \\",
});

const TemplateLight = Type.Object({ id: Uuid, name: Type.String(), key: Type.String() });

export const CaseCreate = Type.Object({
  name: NonBlank({ maxLength: 180 }),
  status: Type.Optional(Type.Enum(['draft', 'open'])),
  external_id: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  template_key: Type.Optional(Nullable(Type.String())),
  template_id: Type.Optional(Nullable(Uuid)),
  assignee_id: Type.Optional(Nullable(Type.String())),
  space_slug: Type.Optional(
    Nullable(
      Type.String({
        pattern: '^space_[A-Za-z0-9]{12}$',
        description:
          'A space of the reference product (`space_` and 12 letters or digits). vericase has no spaces: the slug is kept as given and returned on the case.',
      }),
    ),
  ),
  metadata: Type.Optional(Metadata),
  custom_properties: Type.Optional(CustomProperties),
  tags: Type.Optional(Nullable(Type.Array(TagLabel))),
  companies: Type.Optional(Type.Array(NestedCompanyCreate, { maxItems: 500 })),
  individuals: Type.Optional(Type.Array(NestedIndividualCreate, { maxItems: 500 })),
});

export const CaseUpdate = Type.Object({
  name: Type.Optional(NonBlank({ maxLength: 180 })),
  status: Type.Optional(Type.Enum(['draft', 'open'])),
  external_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
  template_key: Type.Optional(
    Nullable(
      Type.String({
        description:
          "Sets the case's template and applies it to the case's current entities; null detaches it. " +
          'The template the case already has changes nothing (it is not applied again: POST /v1/templates/run does that)',
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

/** A case in GET /v1/cases: `custom_properties` only with include_custom_properties=true (reference). */
export const CaseListItem = Type.Object({
  ...caseBase,
  custom_properties: Type.Optional(CustomProperties),
});

/**
 * A control of the case (the reference's CaseControl): an item of a console-defined checklist,
 * completed by hand or by an automatic rule. vericase has no controls (none can be defined), so
 * `controls` is always empty; the shape is declared for generated clients.
 */
const CaseControl = Type.Object({
  id: Uuid,
  is_completed: Type.Boolean(),
  review: Type.Object({
    comment: Nullable(Type.String()),
    reviewed_at: Nullable(DateTime),
    reviewer_type: Nullable(Type.Enum(['user', 'system', 'api'])),
    user: NullableNestedUser,
  }),
  control: Type.Object({
    id: Uuid,
    label: Type.String(),
    key: Type.String(),
    type: Type.Enum(['manual', 'automatic_logic', 'automatic_code']),
    archived_at: Nullable(DateTime),
  }),
  created_at: DateTime,
  updated_at: DateTime,
});

/** The client portal the case is shared through (the reference's CaseClientPortal). */
const CaseClientPortal = Type.Object({
  id: Uuid,
  name: Type.String(),
  type: Type.Enum(['KYB', 'KYC']),
  wait_step_key: Nullable(Type.String()),
});
export const CaseDetailed = Type.Object({
  ...caseBase,
  companies: Type.Array(Company),
  individuals: Type.Array(Individual),
  controls: Type.Array(CaseControl, { description: 'Always empty: vericase has no case controls' }),
  assignee: Type.Union([NestedUser, Type.Null()], {
    description: 'The console user `assignee_id` names; null when unassigned or not a user of the workspace',
  }),
  client_portal: Type.Union([CaseClientPortal, Type.Null()], {
    description:
      'The client portal the last link was shared through (`wait_step_key`: the wait step the contact waits on); null before any link was shared',
  }),
});

export const CaseGetQuery = Type.Object({
  include_not_relevant: Type.Optional(Type.Boolean({ default: false })),
  exclude_internal_checks: Type.Optional(
    Type.Boolean({ default: false, description: EXCLUDE_INTERNAL_CHECKS_DESCRIPTION }),
  ),
  property_origin: Type.Optional(Type.Boolean({ default: false })),
  data_lineage: Type.Optional(Type.Boolean({ default: false })),
});
export const CaseDeleteQuery = Type.Object({
  permanent: Type.Optional(
    Type.Boolean({
      description:
        'true erases the case, its entities, checks and files for good (also a case already soft deleted, by its id); otherwise the case is hidden from every read',
    }),
  ),
});
