import type { App, AppContext } from '../app-context.ts';
import { errors } from '../http/common-schemas.ts';
import { paginated } from '../http/list-query.ts';
import { getUser } from './get-user.ts';
import { listUsers } from './list-users.ts';
import { User, UserIdParam, UserListQuery } from './schemas.ts';

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
}
