import { Type } from 'typebox';
import { CHECK_TYPES } from '../checks/envelope-schema.ts';
import { DateTime, Nullable, Uuid } from '../http/common-schemas.ts';
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
        'The template behind a system action when there is one; null for API calls (see docs/compatibility.md)',
    }),
  ),
  user: Nullable(
    Type.Object({
      id: Uuid,
      first_name: Type.String(),
      last_name: Type.String(),
      email: Type.String({ format: 'email' }),
    }),
  ),
  context: ActivityContext,
  changes: Nullable(
    Type.Array(Type.Object({ name: Type.String(), previous: ChangeValue, next: ChangeValue }), {
      description: 'Field-level changes; not recorded yet (always null)',
    }),
  ),
  created_at: DateTime,
});
