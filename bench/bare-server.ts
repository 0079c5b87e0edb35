/**
 * The ceiling of the ping ratio: a bare Fastify route returning a constant, in its own process like
 * the service, configured as the service configures Fastify so that the ratio measures what the
 * service adds per request (authentication, hooks, serialisation), not a different set-up: the same
 * configuration (LOG_LEVEL, LOG_FORMAT, LOG_REQUESTS from the environment), logger, request log,
 * server options, request ids and `x-request-id` header.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { loadConfig } from '../src/config.ts';
import { requestLogController } from '../src/http/request-log.ts';
import { httpServerOptions } from '../src/http/server-options.ts';
import { createLogger } from '../src/shared/logger.ts';

const config = loadConfig(process.env);
const app = Fastify({
  loggerInstance: createLogger({ level: config.logLevel, format: config.logFormat }),
  ...httpServerOptions(config),
  logController: requestLogController(config.logRequests),
  genReqId: (req) => {
    const given = req.headers['x-request-id'];
    return typeof given === 'string' && given.length <= 128 ? given : randomUUID();
  },
  requestIdHeader: false,
});
app.addHook('onSend', async (req, reply, payload) => {
  reply.header('x-request-id', req.id);
  return payload;
});
app.get('/ping', async () => ({ workspace_name: 'bench' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
