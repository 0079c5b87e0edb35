/**
 * The request log: one JSON line per request once its response is sent (`request completed`, with
 * `reqId`, `req.method`, `req.url`, `res.statusCode` and `responseTime` in ms), in place of Fastify's
 * two lines per request (`incoming request` and `request completed`). LOG_REQUESTS picks `all`
 * (default), `errors` (status >= 400 or a failed response only) or `off`. The line goes to the
 * server logger's asynchronous writer (src/shared/logger.ts) after the response: it never delays an
 * answer. Fastify's other lines (errors it handles itself) are unchanged.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';

export const REQUEST_LOG_MODES = ['all', 'errors', 'off'] as const;
export type RequestLogMode = (typeof REQUEST_LOG_MODES)[number];

class RequestLog extends LogController {
  readonly #minStatus: number;
  readonly #off: boolean;

  constructor(mode: RequestLogMode) {
    super();
    this.#off = mode === 'off';
    this.#minStatus = mode === 'errors' ? 400 : 0;
  }

  override incomingRequest(): void {
    // one line per request, written when it completes
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.#off || (!error && reply.statusCode < this.#minStatus)) return;
    const line = requestLine(request, reply);
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/** The fields of a request's log line (also written for answers no hook sees: plumbing-responses.ts). */
export function requestLine(request: FastifyRequest, reply: FastifyReply) {
  return {
    req: { method: request.method, url: request.url },
    res: { statusCode: reply.statusCode },
    responseTime: Math.round(reply.elapsedTime * 100) / 100,
  };
}

/** Fastify's `logController` option for the request log of `mode`. */
export function requestLogController(mode: RequestLogMode): LogController {
  return new RequestLog(mode);
}
