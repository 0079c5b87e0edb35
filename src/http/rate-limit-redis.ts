import { Redis } from 'ioredis';

/**
 * The Redis connection of the rate limiter (VERICASE_REDIS_URL). Short timeouts and no retry
 * queue: a limiter that waits on an unreachable Redis would slow every request down.
 */
export function rateLimitRedis(url: string): Redis {
  return new Redis(url, {
    connectTimeout: 500,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
  });
}
