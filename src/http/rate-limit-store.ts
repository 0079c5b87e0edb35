import type { FastifyRateLimitOptions, FastifyRateLimitStore as Store } from '@fastify/rate-limit';
import LocalStore from '@fastify/rate-limit/store/LocalStore.js';
import RedisStore from '@fastify/rate-limit/store/RedisStore.js';
import type { Redis } from 'ioredis';

type Done = Parameters<Store['incr']>[1];
type RouteOptions = Parameters<Store['child']>[0];
/** What the plugin passes a store's constructor (its global settings). */
interface StoreParams {
  continueExceeding: boolean;
  exponentialBackoff: boolean;
}

/**
 * The API rate limit's counts with Redis configured: shared by every API process through Redis, and
 * counted in this process while Redis cannot answer (down, restarting, unreachable), as the sign-in
 * limit does (src/console-auth/login-limiter.ts). The plugin's own Redis store, with
 * `skipOnError`, let every request through during an outage: no limit at all. The counts of the
 * outage stay in this process; Redis's own count takes over again as soon as it answers.
 * `onUnavailable` is called once per outage, by the first count made here (ioredis reconnects by
 * itself; its `ready` ends the outage).
 */
export function redisOrLocalStore(redis: Redis, nameSpace: string, onUnavailable: (err: Error) => void) {
  // reported once per outage, when a count first falls back; `ready` (reconnected) ends the outage
  let reported = false;
  let lastError: Error | undefined;
  let everReady = false;
  redis.on('error', (err: Error) => {
    lastError = err;
  });
  redis.on('ready', () => {
    everReady = true;
    reported = false;
    lastError = undefined;
  });
  const fallingBack = (err?: Error) => {
    // the first connection still being made at start is no outage (nothing failed yet)
    if (reported || (!err && !lastError && !everReady)) return;
    reported = true;
    onUnavailable(err ?? lastError ?? new Error(`Redis connection ${redis.status}`));
  };
  return class RedisOrLocalStore implements Store {
    readonly #shared: Store;
    readonly #local: Store;
    constructor(options: FastifyRateLimitOptions, shared?: Store, local?: Store) {
      const params = options as StoreParams;
      this.#shared =
        shared ?? new RedisStore(params.continueExceeding, params.exponentialBackoff, redis, nameSpace);
      this.#local = local ?? new LocalStore(params.continueExceeding, params.exponentialBackoff);
    }

    incr(key: string, done: Done, timeWindow: number, max: number): void {
      // not connected: no round trip that can only fail (the connection has no offline queue)
      if (redis.status !== 'ready') {
        fallingBack();
        this.#local.incr(key, done, timeWindow, max);
        return;
      }
      this.#shared.incr(
        key,
        (err, res) => {
          if (!err) {
            done(null, res);
            return;
          }
          fallingBack(err);
          this.#local.incr(key, done, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }

    child(routeOptions: RouteOptions): Store {
      return new RedisOrLocalStore({}, this.#shared.child(routeOptions), this.#local.child(routeOptions));
    }
  };
}

/**
 * The rate-limit plugin's options for counts shared through Redis at `redisUrl` (a connection of
 * their own, closed by `close`), falling back to this process's counts while Redis is unreachable.
 */
export async function sharedRateLimitOptions(
  redisUrl: string,
  nameSpace: string,
  log: { warn(obj: object, msg: string): void },
) {
  const redis = (await import('./rate-limit-redis.ts')).rateLimitRedis(redisUrl);
  return {
    options: {
      store: redisOrLocalStore(redis, nameSpace, (err) =>
        log.warn({ err }, `rate limit (${nameSpace}): Redis unreachable, counting in this process meanwhile`),
      ),
      // a store error despite the fallback lets the request through rather than failing it
      skipOnError: true,
    },
    close: () => redis.disconnect(),
  };
}
