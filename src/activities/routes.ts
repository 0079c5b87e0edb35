import type { App, AppContext } from '../app-context.ts';
import { errors } from '../http/common-schemas.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { activityListSpec, listActivities } from './list-activities.ts';
import { Activity } from './schemas.ts';

export function registerActivityRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/activities',
    {
      schema: {
        tags: ['Activities'],
        summary: 'List all activities',
        description:
          'The audit trail of the workspace: every change to a case, its companies, individuals, relations and checks, with who made it (`api`, or `system` for the engine: provider results, automatic decisions, expiry, template checks). Oldest first unless `sort=created_at.desc`. Which events are listed: docs/compatibility.md.',
        querystring: listQuerySchema(activityListSpec),
        response: { 200: paginated(Activity), ...errors(400) },
      },
    },
    (req) => listActivities(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
}
