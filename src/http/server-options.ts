import type { Server } from 'node:http';
import type { FastifyHttpOptions } from 'fastify';
import type { Config } from '../config.ts';
import { clientErrorHandler } from './client-errors.ts';

/**
 * The HTTP server's limits, from the configuration (`VERICASE_HTTP_*`). They act only on a listening
 * server (`app.listen`, which `vericase serve` uses); `app.inject` has no socket to time out.
 *
 * - headers timeout: the request line and headers must arrive within it (slow-headers clients);
 * - request timeout: the whole request, body included, must arrive within it (slow-body clients);
 *   past either, the client gets a 408 error body and the connection is closed;
 * - keep-alive timeout: an idle kept-alive connection is closed after it;
 * - idle timeout: a socket with no traffic at all for this long is destroyed (a stuck peer); never
 *   before a stalled request's 408 (below).
 *
 * Fastify turns Node's request timeout off by default (0) and Node checks both timeouts only every
 * `connectionsCheckingInterval` (30 s by default), so both are set here explicitly.
 */
export function httpServerOptions(config: Pick<Config, 'http'>): FastifyHttpOptions<Server> {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs, idleTimeoutMs } = config.http;
  const interval = checkingInterval(headersTimeoutMs, requestTimeoutMs);
  return {
    // a request whose body stopped arriving is idle too: the idle timeout destroyed its socket
    // without a word before the request timeout's check (every `interval`) could answer its 408
    // (both were 120 s). The idle timeout is therefore past the request timeout and that check.
    connectionTimeout:
      idleTimeoutMs > 0 && requestTimeoutMs > 0
        ? Math.max(idleTimeoutMs, requestTimeoutMs + 2 * interval)
        : idleTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    requestTimeout: requestTimeoutMs,
    http: {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: interval,
    },
    clientErrorHandler,
    // A request that reaches a closing server on a connection already open (pipelined, or sent on a
    // kept-alive connection just before it was closed) is answered normally, with `connection:
    // close`: the database and the job queue stop only after the HTTP server. Fastify's default
    // answers it 503 with its own body, not the service's error body, for a request it could serve.
    return503OnClosing: false,
  };
}

/**
 * How often Node looks for connections past their timeouts: a quarter of the shortest one, between
 * 100 ms and 5 s, so a timeout fires at most 25% (or 5 s) late without a busy timer.
 */
export function checkingInterval(headersTimeoutMs: number, requestTimeoutMs: number): number {
  const set = [headersTimeoutMs, requestTimeoutMs].filter((t) => t > 0);
  if (set.length === 0) return 30_000;
  return Math.min(5_000, Math.max(100, Math.floor(Math.min(...set) / 4)));
}
