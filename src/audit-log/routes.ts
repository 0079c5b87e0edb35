import type { App, AppContext } from '../app-context.ts';
import { errors } from '../http/common-schemas.ts';
import { paginated } from '../http/list-query.ts';
import { AuditEntryOut, auditListSpec, listAuditLog } from './list.ts';
import { listQueryWithDefault } from './sorted-query.ts';

export function registerAuditLogRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/audit-log',
    {
      schema: {
        tags: ['Audit log'],
        summary: 'List the audit log',
        description:
          'Who did what in the workspace: every write on /v1 (by API key or console user, refused ones included when the caller is known), console sign-ins (successful and failed) and sign-outs. Newest first unless `sort=occurred_at` (oldest first). Any console role may read it.',
        querystring: listQueryWithDefault(auditListSpec, 'occurred_at descending (newest first)'),
        response: { 200: paginated(AuditEntryOut), ...errors(400) },
      },
    },
    (req) => listAuditLog(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
}
