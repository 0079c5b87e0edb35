import type { App } from '../app-context.ts';
import type { Db } from '../db/connect.ts';
import { requestOrigin } from './hook.ts';
import { recordAuditEntry } from './record.ts';

/**
 * The operator's /admin writes that concern one workspace — creating it, creating or revoking one
 * of its API keys — are entries of that workspace's audit log, by the `system` actor labelled
 * `admin token` (the token names no one). Only successful ones: a refused one may name no
 * workspace at all. Other /admin writes (list reloads, monitoring runs) concern no one workspace.
 */
export function registerAdminAudit(app: App, db: Db): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const status = reply.statusCode;
    if (status >= 300 || !['POST', 'DELETE'].includes(req.method)) return payload;
    const route = req.routeOptions.url ?? '';
    const params = (req.params ?? {}) as Record<string, string>;
    let body: Record<string, unknown> = {};
    if (typeof payload === 'string' && payload.startsWith('{')) {
      try {
        body = JSON.parse(payload) as Record<string, unknown>;
      } catch {
        body = {};
      }
    }
    let entry: { workspaceId: string; action: string; resourceType: string; resourceId: string } | null =
      null;
    if (route === '/admin/workspaces' && typeof body.id === 'string') {
      entry = {
        workspaceId: body.id,
        action: 'admin.workspace.create',
        resourceType: 'workspace',
        resourceId: body.id,
      };
    } else if (route === '/admin/workspaces/:id/keys' && typeof body.id === 'string') {
      entry = {
        workspaceId: params.id,
        action: 'admin.api_key.create',
        resourceType: 'api_key',
        resourceId: body.id,
      };
    } else if (route === '/admin/keys/:id') {
      const key = await db
        .selectFrom('api_keys')
        .select('workspace_id')
        .where('id', '=', params.id)
        .executeTakeFirst()
        .catch(() => undefined);
      if (key)
        entry = {
          workspaceId: key.workspace_id,
          action: 'admin.api_key.delete',
          resourceType: 'api_key',
          resourceId: params.id,
        };
    }
    if (entry) {
      await recordAuditEntry(
        db,
        {
          ...entry,
          actor: { type: 'system', id: null, label: 'admin token' },
          method: req.method,
          route,
          statusCode: status,
          ...requestOrigin(req),
        },
        req.log,
      );
    }
    return payload;
  });
}
