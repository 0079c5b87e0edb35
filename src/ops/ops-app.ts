import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { App, AppContext } from '../app-context.ts';
import { errorBody } from '../http/errors.ts';
import { requestLogController } from '../http/request-log.ts';
import { registerHttpMetrics, registerOpsRoutes } from './routes.ts';

/**
 * The operations endpoints alone (/healthz, /readyz, /version, /metrics), for `vericase worker` on
 * VERICASE_WORKER_PORT: a worker serves no API, but its job and webhook metrics and its readiness
 * (workers running) live in its process.
 */
export async function buildOpsApp(ctx: AppContext, logger?: FastifyBaseLogger): Promise<App> {
  // the request log of the API (LOG_REQUESTS, one line per request), not Fastify's two lines
  const app = Fastify(
    logger
      ? { loggerInstance: logger, logController: requestLogController(ctx.config.logRequests) }
      : { logger: false },
  ) as unknown as App;
  registerHttpMetrics(app, ctx.config);
  registerOpsRoutes(app, ctx);
  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send(errorBody(404, `Route ${req.method} ${req.url.split('?')[0]} not found`));
  });
  await app.ready();
  return app;
}
