import { randomUUID } from 'node:crypto';
import compress from '@fastify/compress';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import type { App, AppContext } from '../app-context.ts';
import { registerAdminAudit } from '../audit-log/admin-hook.ts';
import { registerAuditLog } from '../audit-log/hook.ts';
import { registerCaseRoutes } from '../cases/routes.ts';
import { legalFormLabelsWait } from '../company-data/legal-forms/get-legal-forms.ts';
import { registerConsoleAuthRoutes } from '../console-auth/routes.ts';
import { registerViewerRedaction } from '../console-auth/viewer-redaction.ts';
import { MODULES } from '../module-list.ts';
import { registerHttpTracing } from '../ops/http-tracing.ts';
import { registerHttpMetrics, registerOpsRoutes } from '../ops/routes.ts';
import { versionInfo } from '../ops/version.ts';
import { registerSettingsRoutes } from '../settings/routes.ts';
import { registerAdminRoutes, registerPingRoute } from '../workspaces/routes.ts';
import { registerApiKeyAuth } from './auth.ts';
import { decorateAuthFailureLimit } from './auth-failure-limit.ts';
import { answerFailedExpectation } from './client-errors.ts';
import { ErrorBody } from './common-schemas.ts';
import { registerConnectionGuard } from './connection-guard.ts';
import { countEstimates } from './count-estimates.ts';
import { registerDocsGuides } from './docs-guides.ts';
import { errorBody, registerErrorHandling } from './errors.ts';
import { registerIdempotency } from './idempotency.ts';
import { buildLazySerializer, lazyValidatorCompiler } from './lazy-schemas.ts';
import { API_DESCRIPTION } from './openapi/description.ts';
import { finishDocument } from './openapi/finish-document.ts';
import { documentPlumbingResponses, frameworkErrorsHandler } from './plumbing-responses.ts';
import { sharedRateLimitOptions } from './rate-limit-store.ts';
import { requestLogController } from './request-log.ts';
import { httpServerOptions } from './server-options.ts';
import { registerStrictInput } from './strict-input.ts';
import { V1_ROUTE_MODULES } from './v1-routes.ts';
import { validatorCompiler } from './validators.ts';

/** A Host header fit to be a server's address: a name or IPv4 address, or a bracketed IPv6 one, and a port. */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;
export interface BuildAppOptions {
  /** A pino logger; without it the app does not log (tests). */
  logger?: FastifyBaseLogger;
}

/** Builds the HTTP application: plumbing once, then every resource's routes under /v1. */
export async function buildApp(ctx: AppContext, opts: BuildAppOptions = {}): Promise<App> {
  countEstimates.ttlMs = ctx.config.listEstimateTtlMs;
  const options: FastifyServerOptions = {
    ...(opts.logger ? { loggerInstance: opts.logger } : { logger: false }),
    ...httpServerOptions(ctx.config),
    // behind a reverse proxy: the client's IP and https from X-Forwarded-* (Secure session cookies)
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 5 * 1024 * 1024,
    // every plugin is our own code or a package's, with no network: one that takes long is a busy
    // machine (a start beside a sanctions-list load on two saturated cores took over Fastify's 10 s
    // default for the docs plugin and failed the whole start), not a hung plugin
    pluginTimeout: 120_000,
    // `/v1/cases/` is `/v1/cases` (generic clients add the slash); a path id may be an external_id
    // of up to 255 characters. The schema counts code points, the router UTF-16 units of the decoded
    // parameter: a character outside the BMP (an emoji) is two, so 255 of them are 510 units
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 510 },
    frameworkErrors: frameworkErrorsHandler(ctx.config.logRequests, ctx.config.metrics.enabled),
    // one line per request, written after the response (src/http/request-log.ts)
    logController: requestLogController(ctx.config.logRequests),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && given.length <= 128 ? given : randomUUID();
    },
    requestIdHeader: false,
    // the serializer picks anyOf branches (nullable fields) with its own ajv: formats are not checked
    // there (an answer is never refused for a stored value's format: admin@localhost failed the
    // e-mail format, a 500 after the write had committed); our formats are declared to be known
    serializerOpts: {
      ajv: { validateFormats: false, formats: { 'alpha-2': true, 'e.164': true, 'tag-label': true } },
    },
    // response serializers compile on a route's first answer, not at start (src/http/lazy-schemas.ts)
    schemaController: { compilersFactory: { buildSerializer: buildLazySerializer as never } },
  };
  const app = Fastify(options).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(lazyValidatorCompiler(validatorCompiler));
  registerHttpTracing(app);
  app.server.on('checkExpectation', answerFailedExpectation);
  // before any route scope, so every request counts (src/ops/metrics.ts)
  registerHttpMetrics(app, ctx.config);

  // callback hooks on every request's path: no promise per request (see docs/performance.md)
  app.addHook('onSend', (req, reply, payload, done) => {
    reply.header('x-request-id', req.id);
    // the API's answers hold personal data: no cache (a browser's, a proxy's) keeps them, unless a
    // route said otherwise (a file download's own header)
    if (req.url.startsWith('/v1/') && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  registerErrorHandling(app);
  registerConnectionGuard(app);
  // before any route: every route's input schemas are made strict as it is registered
  registerStrictInput(app);
  documentPlumbingResponses(app);
  app.addSchema(ErrorBody);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'vericase API',
        // the service's own version, as GET /version and --version give it
        version: versionInfo().version,
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
        description: API_DESCRIPTION,
      },
      // relative to the document; GET /v1/openapi.json names the address the client reached
      servers: [{ url: '/', description: 'This service' }],
      components: {
        securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-SERVICE-API-KEY' } },
      },
      security: [{ ApiKey: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documentObject) =>
      finishDocument((documentObject as { openapiObject: Record<string, unknown> }).openapiObject),
  });

  // The API reference, its guides and the OpenAPI document, compressed for clients that take it
  // (the document is over 1 MB as JSON, swagger-ui's script about as much): in a context of their
  // own, so no other route pays for the compression hook.
  await app.register(async (docs) => {
    await docs.register(compress, { global: true, globalDecompression: false, encodings: ['br', 'gzip'] });
    await docs.register(swaggerUi, {
      routePrefix: '/docs',
      // swagger-ui sets style attributes from script (hence 'unsafe-inline' for styles only); no
      // third-party origin at all (its online validator badge is off)
      staticCSP:
        "default-src 'self'; base-uri 'self'; font-src 'self' data:; frame-ancestors 'self'; img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'",
      uiConfig: { validatorUrl: null, deepLinking: true },
    });
    registerDocsGuides(docs);
    // servers: the service's public address when it is configured (VERICASE_PUBLIC_URL, as every link
    // it issues), else the address this client reached us at, so generated clients and "try it" work
    docs.get('/v1/openapi.json', { schema: { hide: true } }, async (req) => ({
      ...app.swagger(),
      servers: [
        ctx.config.publicUrl
          ? { url: ctx.config.publicUrl, description: 'This service (VERICASE_PUBLIC_URL)' }
          : HOST_HEADER.test(req.host)
            ? { url: `${req.protocol}://${req.host}`, description: 'This service, as the request reached it' }
            : // a Host that is no host name (quotes, markup) is not echoed into the document
              { url: '/', description: 'This service' },
      ],
    }));
  });

  // unknown credentials per IP, for /v1 and the portal alike (src/http/auth-failure-limit.ts)
  decorateAuthFailureLimit(app, ctx.config.authFailuresPerMinute);
  // /healthz, /readyz, /version, /metrics
  registerOpsRoutes(app, ctx);

  await app.register(
    async (admin) => {
      registerAdminAudit(admin as App, ctx.db);
      registerAdminRoutes(admin as App, ctx);
    },
    { prefix: '/admin' },
  );

  await app.register(
    async (v1) => {
      const api = v1 as App;
      registerApiKeyAuth(
        api,
        ctx.keys,
        ctx.config.apiKeyHeaders,
        {
          db: ctx.db,
          times: {
            ttlHours: ctx.config.console.sessionTtlHours,
            idleMinutes: ctx.config.console.sessionIdleMinutes,
          },
        },
        app.authFailures,
      );
      registerViewerRedaction(api);
      if (ctx.config.rateLimitPerMinute > 0) {
        // shared across processes when Redis is configured, counted in this process while it is not
        // reachable (src/http/rate-limit-store.ts)
        const shared = ctx.config.redisUrl
          ? await sharedRateLimitOptions(ctx.config.redisUrl, 'vericase-rl-', app.log)
          : null;
        if (shared) app.addHook('onClose', async () => shared.close());
        // onRequest, right after the key is known (the auth hook is registered first): every
        // authenticated request counts and is refused past the limit, those the validation would
        // refuse (400) too, and before their bodies are read
        await api.register(rateLimit, {
          hook: 'onRequest',
          ...shared?.options,
          max: ctx.config.rateLimitPerMinute,
          timeWindow: 60_000,
          // an API key counts for its workspace (a workspace makes as many keys as it likes: per key,
          // 61 keys were 61 times the limit on a shared server); a console user for themself
          keyGenerator: (req) =>
            req.principal?.keyId
              ? `ws:${req.principal.workspaceId}`
              : req.principal?.user?.id
                ? `user:${req.principal.user.id}`
                : req.ip,
          errorResponseBuilder: (_req, c) => ({
            statusCode: 429,
            ...errorBody(429, `Rate limit exceeded: ${c.max} requests per minute; retry in ${c.after}`),
          }),
        });
      }
      // every write is recorded with who made it (src/audit-log)
      registerAuditLog(api, ctx.db);
      registerIdempotency(api, ctx.db, ctx.config.idempotencyRetentionHours);
      // a company's entity_legal_form_label comes from the ISO 20275 list: read before the first answer
      // (a callback hook: once the list was read it returns at once, with no promise per request)
      api.addHook('onRequest', (_req, _reply, done) => {
        const wait = legalFormLabelsWait(ctx);
        if (wait) void wait.then(() => done());
        else done();
      });
      registerPingRoute(api);
      registerCaseRoutes(api, ctx);
      registerSettingsRoutes(api, ctx);
      for (const register of V1_ROUTE_MODULES) register(api, ctx);
    },
    { prefix: '/v1' },
  );
  await registerConsoleAuthRoutes(app as App, ctx);
  // modules' own routes outside /v1, each in its own scope (their hooks stay theirs)
  for (const m of MODULES) {
    const routes = m.routes;
    if (routes) await app.register(async (scope) => routes(scope as App, ctx));
  }
  return app;
}
