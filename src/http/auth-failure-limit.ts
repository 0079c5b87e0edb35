import { createHash } from 'node:crypto';
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
 *
 * A credential that was valid here lately is vouched for (`vouch`): it is looked up even from an
 * address over its limit, so the people behind a shared address (an office's NAT, a proxy without
 * VERICASE_TRUST_PROXY) keep working while someone there sends made-up keys; only credentials this
 * process has not seen valid within VOUCH_MS wait. Kept as SHA-256 digests, never as sent.
 */
export class AuthFailureLimit {
  static readonly WINDOW_MS = 60_000;
  /** A bound on the IPs kept: past it, windows that ended are dropped, then everything if need be. */
  static readonly MAX_IPS = 100_000;
  /** How long a credential seen valid stays vouched for (a console session's idle time is an hour). */
  static readonly VOUCH_MS = 60 * 60_000;
  static readonly MAX_VOUCHED = 100_000;
  readonly #max: number;
  readonly #windows = new Map<string, { start: number; count: number }>();
  /** Digests of credentials seen valid, with when. */
  readonly #vouched = new Map<string, number>();

  /** `maxPerMinute` 0 counts nothing and refuses nothing. */
  constructor(maxPerMinute: number) {
    this.#max = maxPerMinute;
  }

  /** The 429 for an IP over its limit sending a credential not vouched for, else undefined. */
  refusal(ip: string, credential: string, now = Date.now()): ApiError | undefined {
    if (this.#max <= 0) return undefined;
    const w = this.#windows.get(ip);
    if (!w || w.count < this.#max || now - w.start >= AuthFailureLimit.WINDOW_MS) return undefined;
    const seen = this.#vouched.get(digest(credential));
    if (seen !== undefined && now - seen < AuthFailureLimit.VOUCH_MS) return undefined;
    const wait = Math.max(1, Math.ceil((w.start + AuthFailureLimit.WINDOW_MS - now) / 1000));
    const err = new ApiError(
      429,
      `Too many requests from this address with API keys, sessions or portal links that match nothing (${this.#max} a minute): retry in ${wait} seconds`,
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

  /** `credential` was just found valid (a key, a session, a portal link's token). */
  vouch(credential: string, now = Date.now()): void {
    if (this.#max <= 0) return;
    if (this.#vouched.size >= AuthFailureLimit.MAX_VOUCHED) {
      for (const [d, at] of this.#vouched) if (now - at >= AuthFailureLimit.VOUCH_MS) this.#vouched.delete(d);
      if (this.#vouched.size >= AuthFailureLimit.MAX_VOUCHED) this.#vouched.clear();
    }
    this.#vouched.set(digest(credential), now);
  }

  #prune(now: number): void {
    for (const [ip, w] of this.#windows) {
      if (now - w.start >= AuthFailureLimit.WINDOW_MS) this.#windows.delete(ip);
    }
    if (this.#windows.size >= AuthFailureLimit.MAX_IPS) this.#windows.clear();
  }
}

const digest = (credential: string) => createHash('sha256').update(credential).digest('base64');

declare module 'fastify' {
  interface FastifyInstance {
    /** Failed credentials per IP (src/http/auth-failure-limit.ts), shared by /v1 and the portal. */
    authFailures: AuthFailureLimit;
  }
}

export function decorateAuthFailureLimit(app: FastifyInstance, maxPerMinute: number): void {
  app.decorate('authFailures', new AuthFailureLimit(maxPerMinute));
}
