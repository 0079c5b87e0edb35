import { Type } from 'typebox';
import { CHECK_TYPES } from '../checks/envelope-schema.ts';
import { DateTime, Nullable, Uuid } from '../http/common-schemas.ts';
import { NestedUser } from '../users/nested-user.ts';
import { ACTIVITY_TYPES } from './activity-types.ts';

const CheckTypes = CHECK_TYPES;

/** What the activity was about, as it was at the time; only the parts that apply are present. */
const ActivityContext = Type.Object({
  case: Type.Optional(
    Type.Object({ status: Type.Enum(['draft', 'open', 'approved', 'rejected', 'closed']) }),
  ),
  case_review: Type.Optional(
    Type.Object({
      id: Uuid,
      status: Type.Enum(['approved', 'rejected', 'closed']),
      comment: Nullable(Type.String()),
      next_review_at: Nullable(Type.String({ format: 'date' })),
    }),
  ),
  risk: Type.Optional(
    Type.Object({
      id: Uuid,
      level: Type.Enum(['not_defined', 'low', 'medium', 'high', 'critical', 'prohibited']),
      mode: Type.Enum(['automatic', 'manual']),
      comment: Nullable(Type.String()),
    }),
  ),
  template: Type.Optional(Type.Object({ id: Uuid, name: Type.String(), key: Type.String() })),
  case_relation: Type.Optional(
    Nullable(
      Type.Object({
        id: Uuid,
        from_company_id: Nullable(Uuid),
        from_individual_id: Nullable(Uuid),
        to_company_id: Uuid,
      }),
    ),
  ),
  check: Type.Optional(
    Nullable(Type.Object({ id: Uuid, type: Type.Enum(CheckTypes), subtype: Nullable(Type.String()) })),
  ),
  aml_hit_ids: Type.Optional(
    Type.String({
      description: 'The ids of the AML hits a confirmed or ignored aml_hit activity decided, comma-separated',
    }),
  ),
  // Parts of the reference's context for activities vericase does not record yet (registry
  // purchases, client portals, AI agents): declared so clients know them, never present.
  vendor: Type.Optional(
    Type.String({ description: 'The company-data provider of a purchase (not recorded yet)' }),
  ),
  client_portal: Type.Optional(
    Type.Object(
      { id: Uuid, name: Type.String() },
      { description: 'The client portal of a contact action (no client portals yet)' },
    ),
  ),
  ai_agent: Type.Optional(
    Type.Union(
      [
        Type.Object({
          execution_id: Uuid,
          type: Type.Enum([
            'review_aml_check',
            'review_document_check',
            'review_id_document_check',
            'review_id_verification_check',
          ]),
        }),
        Type.Null(),
      ],
      { description: 'The AI agent behind a system action (vericase has none)' },
    ),
  ),
});

const ChangeValue = Nullable(Type.Union([Type.String(), Type.Boolean(), Type.Number()]));

export const Activity = Type.Object({
  id: Uuid,
  case_id: Uuid,
  individual_id: Nullable(Uuid),
  company_id: Nullable(Uuid),
  type: Type.Enum(ACTIVITY_TYPES),
  author_type: Type.Enum(['api', 'user', 'system', 'contact']),
  author_id: Nullable(
    Type.String({
      format: 'uuid',
      description:
        'The API key of an `api` activity, the template behind a `system` one when there is one, the console user of a `user` one (see docs/compatibility.md)',
    }),
  ),
  user: Type.Union([NestedUser, Type.Null()], {
    description: 'The console user of a `user` activity, otherwise null',
  }),
  context: ActivityContext,
  changes: Nullable(
    Type.Array(Type.Object({ name: Type.String(), previous: ChangeValue, next: ChangeValue }), {
      description:
        'Field-level changes where the context cannot tell them: a tags activity lists each tag put on (`previous` null, `next` the label) and taken off (`previous` the label, `next` null), with `name` `tags`; an assignee activity gives `assignee_id` before and after (a user id or null); null for other activities',
    }),
  ),
  created_at: DateTime,
});
