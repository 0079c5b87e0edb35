import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readCookie, SESSION_COOKIE } from '../console-auth/cookies.ts';
import { READ_METHODS, requiredRole, roleAllows } from '../console-auth/permissions.ts';
import { csrfMatches, resolveSession, type SessionTimes } from '../console-auth/sessions.ts';
import type { Db } from '../db/connect.ts';
import { runInRequestScope } from '../shared/request-scope.ts';
import { hashApiKey } from '../workspaces/api-key.ts';
import { findActiveKey } from '../workspaces/repository.ts';
import { AuthFailureLimit } from './auth-failure-limit.ts';
import { ApiError } from './errors.ts';

export const API_KEY_HEADER = 'x-service-api-key';

/** What a console user may do (src/console-auth/permissions.ts); an API key may do everything. */
export type Role = 'admin' | 'reviewer' | 'viewer';

/** The console user a session authenticates, as read at the request. */
export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: Role;
  sessionId: string;
}

/** Who a /v1 request is: exactly one of keyId (API key) and user (console session) is set. */
export interface Principal {
  workspaceId: string;
  workspaceName: string;
  keyId: string | null;
  /** What the audit log calls the key: its name, else its prefix (null for a session). */
  keyLabel: string | null;
  user: SessionUser | null;
  /** `admin` for API keys; the user's role for a session. */
  role: Role;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

/**
 * Resolves keys to workspaces. A short-lived cache keeps the hot path free of a query per
 * request; revocation through this process clears it at once, and other processes see it
 * within the TTL (VERICASE_AUTH_CACHE_TTL_MS). The cache is keyed by the key as sent, so a hit
 * costs no hashing either (the database holds only hashes; this process's memory holds, for the
 * TTL, keys it was just sent).
 */
export class KeyResolver {
  readonly #db: Db;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, { principal: Principal | null; expires: number; hash: string }>();
  /** Lookups in flight, by key. */
  readonly #lookups = new Map<string, { promise: Promise<Principal | null>; hash: string }>();
  /** Counts revocations (forget, clear): a lookup that saw one while it ran does not cache its answer. */
  #generation = 0;

  constructor(db: Db, ttlMs: number) {
    this.#db = db;
    this.#ttlMs = ttlMs;
  }

  /** The cached answer for `key` while fresh (null: invalid key, cached), or undefined: ask resolve(). */
  cached(key: string): Principal | null | undefined {
    const hit = this.#cache.get(key);
    return hit && hit.expires > Date.now() ? hit.principal : undefined;
  }

  /**
   * The principal of `key`, from the cache or the database. One lookup per key at a time: requests
   * that arrive while it runs (every request of a busy client when its entry has just expired) wait
   * for it instead of sending their own.
   */
  resolve(key: string): Promise<Principal | null> {
    const cached = this.cached(key);
    if (cached !== undefined) return Promise.resolve(cached);
    const running = this.#lookups.get(key);
    if (running) return running.promise;
    const hash = hashApiKey(key);
    const promise = this.#lookup(key, hash).finally(() => {
      if (this.#lookups.get(key)?.promise === promise) this.#lookups.delete(key);
    });
    this.#lookups.set(key, { promise, hash });
    return promise;
  }

  async #lookup(key: string, hash: string): Promise<Principal | null> {
    const generation = this.#generation;
    const now = Date.now();
    const row = await findActiveKey(this.#db, hash);
    const principal = row
      ? {
          workspaceId: row.workspace_id,
          workspaceName: row.workspace_name,
          keyId: row.key_id,
          keyLabel: row.key_name ?? row.key_prefix,
          user: null,
          role: 'admin' as const,
        }
      : null;
    // a revocation while the row was read: its answer may predate it, so it is not kept
    if (this.#ttlMs > 0 && generation === this.#generation) {
      if (this.#cache.size > 10_000) this.#cache.clear();
      this.#cache.set(key, { principal, expires: now + this.#ttlMs, hash });
    }
    return principal;
  }

  /**
   * Drops what this process knows of the key of this hash (a revocation in this process): its cached
   * answer, and its lookup in flight, whose answer is not cached and is not given to later requests.
   */
  forget(keyHash: string): void {
    this.#generation++;
    for (const [key, entry] of this.#cache) if (entry.hash === keyHash) this.#cache.delete(key);
    for (const [key, entry] of this.#lookups) if (entry.hash === keyHash) this.#lookups.delete(key);
  }

  clear(): void {
    this.#generation++;
    this.#cache.clear();
    this.#lookups.clear();
  }
}

/**
 * The key a request carries, looked up in every accepted header name (the documented one, plus the
 * reference product's for clients migrating by changing only the base URL). A request carrying two
 * different keys is refused rather than served as either workspace.
 */
export function requestApiKey(request: FastifyRequest, headerNames: readonly string[]): string | undefined {
  // the usual request: one key, in one header, no list
  let only: string | undefined;
  let found = 0;
  for (const name of headerNames) {
    const value = request.headers[name];
    if (value === undefined) continue;
    found++;
    if (typeof value === 'string') only = value;
  }
  if (found === 0) return undefined;
  if (found === 1 && only !== undefined && !only.includes(',')) return only.trim() || undefined;
  const keys = new Set<string>();
  for (const name of headerNames) {
    const value = request.headers[name];
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      for (const part of v.split(',')) if (part.trim()) keys.add(part.trim());
    }
  }
  if (keys.size > 1) throw new ApiError(401, 'Two different API keys in one request: send exactly one');
  return keys.values().next().value;
}

/** How /v1 reads a console session from its cookie (absent: API keys only). */
export interface SessionAuth {
  db: Db;
  times: SessionTimes;
}

/** Sets the principal of a key (undefined when the key is valid), or the error to fail with. */
function acceptKey(request: FastifyRequest, principal: Principal | null): ApiError | undefined {
  if (!principal) return new ApiError(401, 'Invalid or revoked API key');
  request.principal = principal;
  return undefined;
}

/** A request without a key: its console session cookie, its CSRF token on writes and its role. */
async function authenticateSession(
  request: FastifyRequest,
  sessions: SessionAuth | null,
  failures: AuthFailureLimit,
): Promise<void> {
  const token = sessions ? readCookie(request, SESSION_COOKIE) : null;
  if (!sessions || !token) {
    throw new ApiError(401, 'Missing API key: send it in the X-SERVICE-API-KEY header');
  }
  const refused = failures.refusal(request.ip, token);
  if (refused) throw refused;
  const session = await resolveSession(sessions.db, token, sessions.times);
  if (!session) {
    failures.failed(request.ip);
    throw new ApiError(401, 'Session expired or revoked: sign in again');
  }
  failures.vouch(token);
  const role = session.user.role;
  // set before the checks below, so a refused request is still known by who made it (audit log)
  request.principal = {
    workspaceId: session.workspaceId,
    workspaceName: session.workspaceName,
    keyId: null,
    keyLabel: null,
    user: { ...session.user, sessionId: session.sessionId },
    role,
  };
  if (
    !READ_METHODS.includes(request.method) &&
    !csrfMatches(request.headers['x-csrf-token'], session.csrfToken)
  ) {
    throw new ApiError(403, 'CSRF token missing or invalid: send the X-CSRF-Token header');
  }
  const route = request.routeOptions.url;
  if (route) {
    const needed = requiredRole(request.method, route);
    if (!roleAllows(role, needed)) {
      throw new ApiError(
        403,
        `Your role (${role}) does not allow this: ${request.method} ${route} needs ${needed}`,
      );
    }
  }
}

/**
 * Requires a valid key, or a console session cookie, on every route of the given instance (the
 * /v1 scope). A key header wins over a cookie. A session request must carry its CSRF token on every
 * write, and its user's role must allow the route (src/console-auth/permissions.ts).
 */
export function registerApiKeyAuth(
  app: FastifyInstance,
  resolver: KeyResolver,
  headerNames: readonly string[] = [API_KEY_HEADER],
  sessions: SessionAuth | null = null,
  failures: AuthFailureLimit = new AuthFailureLimit(0),
): void {
  app.decorateRequest('principal', null as unknown as Principal);
  // A callback hook with a synchronous path for a cached key: no promise on most requests.
  app.addHook('onRequest', (request, _reply, done) => {
    let key: string | undefined;
    try {
      key = requestApiKey(request, headerNames);
    } catch (err) {
      return done(err as Error);
    }
    if (key) {
      const cached = resolver.cached(key);
      if (cached !== undefined) return done(acceptKey(request, cached));
      // a key this process does not know costs a lookup: not for an IP sending made-up ones
      const refused = failures.refusal(request.ip, key);
      if (refused) return done(refused);
      resolver.resolve(key).then(
        (principal) => {
          if (principal) failures.vouch(key);
          else failures.failed(request.ip);
          done(acceptKey(request, principal));
        },
        (err: Error) => done(err),
      );
      return;
    }
    authenticateSession(request, sessions, failures).then(
      () => done(),
      (err: Error) => done(err),
    );
  });
  // The handler runs inside the request's scope, so an event it records names the key (the
  // activity's author_id for `api` activities). A callback hook: done() runs the handler within it.
  app.addHook('preHandler', (request, _reply, done) => {
    runInRequestScope(
      {
        ...(request.principal.user
          ? { userId: request.principal.user.id }
          : { apiKeyId: request.principal.keyId ?? '' }),
      },
      done,
    );
  });
}
