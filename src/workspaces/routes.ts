import { timingSafeEqual } from 'node:crypto';
import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { registerCompanyMonitoringAdminRoutes } from '../company-data/monitoring/admin-routes.ts';
import { DateTime, errors, NonBlank, Uuid } from '../http/common-schemas.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { registerScreeningAdminRoutes } from '../screening/service/admin-routes.ts';
import { createApiKey, createWorkspace, findWorkspace, revokeApiKey } from './repository.ts';

export function registerPingRoute(app: App): void {
  app.get(
    '/ping',
    {
      schema: {
        tags: ['Ping'],
        summary: 'Test the API key',
        response: { 200: Type.Object({ workspace_name: Type.String() }), ...errors() },
      },
    },
    async (req) => ({ workspace_name: req.principal.workspaceName }),
  );
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Operator endpoints, enabled only when VERICASE_ADMIN_TOKEN is set (404 otherwise). */
export function registerAdminRoutes(app: App, ctx: AppContext): void {
  const token = ctx.config.adminToken;
  app.addHook('onRequest', async (req) => {
    // off: a 404 as for any missing route, saying how an operator turns them on
    if (!token) {
      throw new ApiError(
        404,
        `Route ${req.method} ${req.url.split('?')[0]} not found: the operator endpoints under /admin are off until VERICASE_ADMIN_TOKEN is set (then sent as Authorization: Bearer <token>)`,
      );
    }
    const auth = req.headers.authorization ?? '';
    const given = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!given || !sameSecret(given, token)) throw new ApiError(401, 'Invalid admin token');
  });
  const tags = ['Admin'];
  registerScreeningAdminRoutes(app, ctx);
  registerCompanyMonitoringAdminRoutes(app, ctx);
  app.post(
    '/workspaces',
    {
      schema: {
        tags,
        summary: 'Create a workspace and its first API key (shown once)',
        body: Type.Object({ name: NonBlank({ maxLength: 200 }) }),
        response: {
          201: Type.Object({
            id: Uuid,
            name: Type.String(),
            api_key: Type.String(),
            api_key_id: Type.String({
              format: 'uuid',
              description: 'The id of that first key: DELETE /admin/keys/{id} revokes it',
            }),
            created_at: DateTime,
          }),
          ...errors(400),
        },
      },
    },
    async (req, reply) => {
      const ws = await createWorkspace(ctx.db, req.body.name);
      return reply.status(201).send({
        id: ws.id,
        name: ws.name,
        api_key: ws.api_key,
        api_key_id: ws.api_key_id,
        created_at: ws.created_at,
      });
    },
  );
  app.post(
    '/workspaces/:id/keys',
    {
      schema: {
        tags,
        summary: 'Create another API key for a workspace (shown once)',
        params: Type.Object({ id: Uuid }),
        response: {
          201: Type.Object({ id: Uuid, workspace_id: Uuid, api_key: Type.String() }),
          ...errors(404),
        },
      },
    },
    async (req, reply) => {
      if (!(await findWorkspace(ctx.db, req.params.id))) throw notFound('Workspace');
      return reply.status(201).send(await createApiKey(ctx.db, req.params.id));
    },
  );
  app.delete(
    '/keys/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an API key (effective immediately on this process)',
        params: Type.Object({ id: Uuid }),
        response: { 204: Type.Null(), ...errors(404) },
      },
    },
    async (req, reply) => {
      const revoked = await revokeApiKey(ctx.db, req.params.id);
      if (!revoked) throw notFound('Active API key');
      ctx.keys.forget(revoked.key_hash);
      return reply.status(204).send(null);
    },
  );
}
