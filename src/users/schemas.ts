import { Type } from 'typebox';
import { DateTime, Nullable, Uuid } from '../http/common-schemas.ts';

/** A console user of the workspace (the reference's User). */
export const User = Type.Object({
  id: Uuid,
  first_name: Type.String(),
  last_name: Type.String(),
  // no format declared on the way out (as NestedUser): the first admin is admin@localhost, a dotless
  // domain a client validating the `email` format would refuse in every list of users
  email: Type.String({ description: 'The e-mail the user signs in with' }),
  role: Type.String({
    description:
      "`admin`, `reviewer` or `viewer` (the console's roles: viewers read, reviewers work on cases, admins also configure the workspace)",
  }),
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

export const RoleEnum = Type.Union(
  [Type.Literal('admin'), Type.Literal('reviewer'), Type.Literal('viewer')],
  {
    description: '`admin`, `reviewer` or `viewer`',
  },
);

const Name = Type.String({ maxLength: 100 });

export const CreateUserBody = Type.Object({
  email: Type.String({ format: 'email', maxLength: 320 }),
  first_name: Type.Optional(Name),
  last_name: Type.Optional(Name),
  role: RoleEnum,
  password: Type.Optional(
    Type.String({
      minLength: 10,
      maxLength: 200,
      description: 'At least 10 characters; omitted: one is generated and answered once',
    }),
  ),
});

export const CreatedUser = Type.Object({
  ...User.properties,
  password: Type.Optional(
    Type.String({ description: 'The generated password, answered only here and only when none was given' }),
  ),
});

export const UpdateUserBody = Type.Object({
  first_name: Type.Optional(Name),
  last_name: Type.Optional(Name),
  role: Type.Optional(RoleEnum),
  suspended: Type.Optional(
    Type.Boolean({
      description: 'true suspends the user and ends their sessions; false lifts the suspension',
    }),
  ),
});
