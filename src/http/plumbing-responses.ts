import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { observeHttp } from '../ops/metrics.ts';
import { errors } from './common-schemas.ts';
import { errorBody } from './errors.ts';
import { type RequestLogMode, requestLine } from './request-log.ts';

/**
 * Statuses the shared plumbing answers on routes that never mention them, documented on every
 * route so that the OpenAPI document lists every status a client can get (the fuzz drill checks
 * each answer against it):
 * - 400: path, query and body validation, malformed JSON or URL (every route);
 * - 409: an Idempotency-Key reused with another body (every POST, src/http/idempotency.ts);
 * - 413, 415: a body over the limit or of an unsupported media type (every method with a body);
 * - 404: operator routes when no admin token is configured (src/workspaces/routes.ts);
 * - 503: the database or the file storage did not answer in time (every route, with Retry-After).
 */
export function documentPlumbingResponses(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as { response?: Record<string, unknown>; hide?: boolean } | undefined;
    if (!schema?.response || schema.hide) return;
    const methods = [route.method].flat();
    const codes = [400, 503];
    if (route.url.startsWith('/admin')) codes.push(404);
    if (methods.includes('POST')) codes.push(409);
    if (methods.some((m) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(m))) codes.push(413, 415);
    const response = schema.response;
    for (const [code, body] of Object.entries(errors(...codes))) {
      if (!(code in response) && !(`${code[0]}xx` in response)) response[code] = body;
    }
  });
}

/**
 * Errors Fastify's router raises before any hook runs (a URL that is not valid percent-encoding, a
 * path parameter longer than the router takes): the usual error body and 400, not Fastify's own
 * body and a 414 no route documents.
 */
export function frameworkErrorsHandler(
  logRequests: RequestLogMode,
  metrics: boolean,
): (error: FastifyError, req: FastifyRequest, reply: FastifyReply) => void {
  return (error, req, reply) => {
    const message =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'A path parameter is too long'
        : error.code === 'FST_ERR_BAD_URL'
          ? 'The URL is not valid percent-encoded UTF-8'
          : error.message;
    // no hook runs for these: what the hooks give every answer is given here (the request id, no
    // cache), and the request is logged and counted, or a scanner's probes would leave no trace
    reply.header('x-request-id', req.id);
    reply.header('cache-control', 'no-store');
    reply.status(400).send(errorBody(400, message, [{ path: 'url', message }]));
    if (logRequests !== 'off') reply.log.info(requestLine(req, reply), 'request completed');
    if (metrics) observeHttp(req.method, 'unmatched', 400, reply.elapsedTime / 1000);
  };
}
