import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors } from '../http/common-schemas.ts';
import { badRequest } from '../http/errors.ts';
import { SECRET_ANSWER } from '../http/idempotency.ts';
import { paginated } from '../http/list-query.ts';
import { getUser } from './get-user.ts';
import { listUsers } from './list-users.ts';
import { CreatedUser, CreateUserBody, UpdateUserBody, User, UserIdParam, UserListQuery } from './schemas.ts';
import { createUser, revokeSessionsOf, updateUser } from './write-users.ts';

export function registerUserRoutes(app: App, ctx: AppContext): void {
  const tags = ['Users'];
  app.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'List all users',
        description:
          "The workspace's console users, oldest first; suspended users only with `include_suspended=true`.",
        querystring: UserListQuery,
        response: { 200: paginated(User), ...errors(400) },
      },
    },
    (req) => listUsers(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'Retrieve a user',
        description: 'Suspended users included.',
        params: UserIdParam,
        response: { 200: User, ...errors(400, 404) },
      },
    },
    (req) => getUser(ctx.db, req.principal.workspaceId, req.params.id),
  );

  app.post(
    '/users',
    {
      config: SECRET_ANSWER,
      schema: {
        tags,
        summary: 'Create a user',
        description:
          'A console user (admins only). Without `password` one is generated and answered once in `password`; only its hash is stored.',
        body: CreateUserBody,
        response: { 201: CreatedUser, ...errors(400, 403, 409) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await createUser(ctx.db, req.principal.workspaceId, req.body)),
  );

  app.patch(
    '/users/:id',
    {
      schema: {
        tags,
        summary: 'Update a user',
        description:
          "Name, role or suspension (admins only). Suspending ends the user's sessions; the last active admin cannot be demoted or suspended (409); a signed-in admin cannot change their own role or suspension (400: another admin does).",
        params: UserIdParam,
        body: UpdateUserBody,
        response: { 200: User, ...errors(400, 403, 404, 409) },
      },
    },
    (req) => {
      // the console's rule, kept by the server too: an admin's own role and access are changed by
      // another admin, so nobody demotes or suspends themselves by a slip (their name is theirs)
      const self = req.principal.user?.id === req.params.id;
      if (self && (req.body.role !== undefined || req.body.suspended !== undefined)) {
        const field = req.body.role !== undefined ? 'role' : 'suspended';
        throw badRequest(`${field}: your own role and access are changed by another admin`, field);
      }
      return updateUser(ctx.db, req.principal.workspaceId, req.params.id, req.body);
    },
  );

  app.delete(
    '/users/:id/sessions',
    {
      schema: {
        tags,
        summary: "Revoke a user's sessions",
        description: 'Signs the user out of every browser (admins only).',
        params: UserIdParam,
        response: { 204: Type.Null(), ...errors(400, 403, 404) },
      },
    },
    async (req, reply) => {
      await revokeSessionsOf(ctx.db, req.principal.workspaceId, req.params.id);
      return reply.status(204).send(null);
    },
  );
}
