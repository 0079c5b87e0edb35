import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../http/common-schemas.ts';

/** A console user of the workspace (the reference's User). */
export const User = Type.Object({
  id: Uuid,
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String({ format: 'email' }),
  role: Type.String({ description: '`owner`, `admin`, `member`, or the name of a custom role' }),
  created_at: DateTime,
  suspended_at: Nullable(DateTime),
});

export const UserListQuery = Type.Object({
  include_suspended: Type.Optional(
    Type.Boolean({ default: false, description: 'Also list suspended users (default: active users only).' }),
  ),
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1.' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page.' }),
  ),
});

export const UserIdParam = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Id of the user' }),
});
