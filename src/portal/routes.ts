import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import type { App, AppContext } from '../app-context.ts';
import { registerSignaturePortalRoutes } from '../checks/types/electronic_signature/portal-routes.ts';
import { MULTIPART_LIMITS, readFileUpload } from '../files/read-file-part.ts';
import { errorBody } from '../http/errors.ts';
import { sharedRateLimitOptions } from '../http/rate-limit-store.ts';
import { registerPortalAuth } from './auth.ts';
import { deletePendingFile } from './delete-file.ts';
import { readLogo } from './logo.ts';
import {
  ActionOut,
  ActionParams,
  PendingFileParams,
  portalErrors,
  SessionOut,
  UploadQuery,
} from './schemas.ts';
import { readSession } from './session.ts';
import { submitAction } from './submit.ts';
import { uploadPendingFile } from './upload.ts';

/** Requests per minute per link, like an API key's (VERICASE_RATE_LIMIT_PER_MINUTE). */
async function registerPortalRateLimit(api: App, ctx: AppContext): Promise<void> {
  if (ctx.config.rateLimitPerMinute <= 0) return;
  const shared = ctx.config.redisUrl
    ? await sharedRateLimitOptions(ctx.config.redisUrl, 'vericase-portal-rl-', api.log)
    : null;
  if (shared) api.addHook('onClose', async () => shared.close());
  await api.register(rateLimit, {
    hook: 'preHandler',
    ...shared?.options,
    max: ctx.config.rateLimitPerMinute,
    timeWindow: 60_000,
    keyGenerator: (req) => req.portalAccess?.link.id ?? req.ip,
    errorResponseBuilder: (_req, c) => ({
      statusCode: 429,
      ...errorBody(429, `Rate limit exceeded: ${c.max} requests per minute; retry in ${c.after}`),
    }),
  });
}

/**
 * The client portal's own API under /portal/api, for the portal's page: authorised by a link's
 * token only (auth.ts), hidden from /v1/openapi.json (documented in docs/client-portal.md), with
 * validated inputs and shaped outputs like every route.
 */
export async function registerPortalRoutes(app: App, ctx: AppContext): Promise<void> {
  await app.register(
    async (scope) => {
      const api = scope as unknown as App;
      registerPortalAuth(api, ctx);
      await registerPortalRateLimit(api, ctx);
      // what the page reads is the contact's own: no cache keeps it
      api.addHook('onSend', async (_req, reply, payload) => {
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
        return payload;
      });

      api.get(
        '/session',
        { schema: { hide: true, response: { 200: SessionOut, ...portalErrors() } } },
        async (req) => readSession(ctx, req.portalAccess),
      );

      // multipart bodies are parsed in this child scope only
      await api.register(async (child) => {
        await child.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });
        const uploads = child as unknown as App;
        uploads.post(
          '/actions/:id/files',
          {
            schema: {
              hide: true,
              consumes: ['multipart/form-data'],
              params: ActionParams,
              querystring: UploadQuery,
              response: { 201: ActionOut, ...portalErrors(400, 404, 413, 415) },
            },
          },
          async (req, reply) => {
            const upload = await readFileUpload(req);
            const action = await uploadPendingFile(
              ctx,
              req.portalAccess,
              req.params.id,
              req.query.slot,
              upload,
            );
            return reply.status(201).send(action);
          },
        );
      });

      api.delete(
        '/actions/:id/files/:file_id',
        {
          schema: {
            hide: true,
            params: PendingFileParams,
            response: { 200: ActionOut, ...portalErrors(400, 404) },
          },
        },
        async (req) => deletePendingFile(ctx, req.portalAccess, req.params.id, req.params.file_id),
      );

      api.post(
        '/actions/:id/submit',
        {
          schema: {
            hide: true,
            params: ActionParams,
            response: { 200: ActionOut, ...portalErrors(400, 404) },
          },
        },
        async (req) => submitAction(ctx, req.portalAccess, req.params.id, req.ip),
      );

      // electronic_signature's signing steps (start, document, code, sign, decline)
      registerSignaturePortalRoutes(api, ctx);

      api.get('/logo', { schema: { hide: true, response: { ...portalErrors(404) } } }, async (req, reply) => {
        const logo = await readLogo(ctx, req.portalAccess);
        reply
          .type(logo.mime)
          .header('content-length', logo.size)
          .header('cache-control', 'private, max-age=300')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'");
        return reply.send(logo.stream);
      });
    },
    { prefix: '/portal/api' },
  );
}
