import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

/**
 * Requests whose credential matches nothing (an API key, a console session cookie or a portal
 * link token that no row holds), counted per client IP in this process. Past the limit in a minute,
 * the IP's requests with a credential this process has not just seen are refused (429,
 * `retry-after`) before any lookup. Each made-up credential cost a database lookup (it is never in
 * the key cache), and the API's rate limit counts only requests it knows the workspace of, so a
 * flood of invented keys was a flood of queries, unlimited. A key this process has cached is
 * answered as before, whatever its IP did. Counted per process, without Redis: what it protects is
 * this process's share of the database, and it costs a Map lookup, only on the path that queries.
 */
export class AuthFailureLimit {
  static readonly WINDOW_MS = 60_000;
  /** A bound on the IPs kept: past it, windows that ended are dropped, then everything if need be. */
  static readonly MAX_IPS = 100_000;
  readonly #max: number;
  readonly #windows = new Map<string, { start: number; count: number }>();

  /** `maxPerMinute` 0 counts nothing and refuses nothing. */
  constructor(maxPerMinute: number) {
    this.#max = maxPerMinute;
  }

  /** The 429 for an IP over its limit, else undefined. */
  refusal(ip: string, now = Date.now()): ApiError | undefined {
    if (this.#max <= 0) return undefined;
    const w = this.#windows.get(ip);
    if (!w || w.count < this.#max || now - w.start >= AuthFailureLimit.WINDOW_MS) return undefined;
    const wait = Math.max(1, Math.ceil((w.start + AuthFailureLimit.WINDOW_MS - now) / 1000));
    const err = new ApiError(
      429,
      `Too many requests with an unknown API key, session or portal link from this address (${this.#max} a minute): retry in ${wait} seconds`,
    );
    err.retryAfterSeconds = wait;
    return err;
  }

  /** One credential from `ip` matched nothing. */
  failed(ip: string, now = Date.now()): void {
    if (this.#max <= 0) return;
    const w = this.#windows.get(ip);
    if (w && now - w.start < AuthFailureLimit.WINDOW_MS) {
      w.count++;
      return;
    }
    if (!w && this.#windows.size >= AuthFailureLimit.MAX_IPS) this.#prune(now);
    this.#windows.set(ip, { start: now, count: 1 });
  }

  #prune(now: number): void {
    for (const [ip, w] of this.#windows) {
      if (now - w.start >= AuthFailureLimit.WINDOW_MS) this.#windows.delete(ip);
    }
    if (this.#windows.size >= AuthFailureLimit.MAX_IPS) this.#windows.clear();
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Failed credentials per IP (src/http/auth-failure-limit.ts), shared by /v1 and the portal. */
    authFailures: AuthFailureLimit;
  }
}

export function decorateAuthFailureLimit(app: FastifyInstance, maxPerMinute: number): void {
  app.decorate('authFailures', new AuthFailureLimit(maxPerMinute));
}
