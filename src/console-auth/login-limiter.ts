import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Failed sign-ins counted per client IP and per e-mail; past the limit a sign-in is refused (429)
 * before its password is even checked, so guessing stops for the rest of the window. A success
 * does not clear the e-mail's count: e-mails are unique per workspace only, and a user of another
 * workspace holding the same address (anyone with a key can create one) could otherwise reset it
 * with their own password between guesses. The count expires with its window.
 */
export interface LoginLimits {
  maxFailuresPerEmail: number;
  maxFailuresPerIp: number;
  windowMinutes: number;
}

export interface LoginLimiter {
  /** Seconds to wait when the IP or the e-mail is over its limit, else 0. */
  blockedFor(ip: string, email: string): Promise<number>;
  failed(ip: string, email: string): Promise<void>;
  close(): Promise<void>;
}

function counters(limits: LoginLimits, ip: string, email: string): [string, number][] {
  return [
    [`ip:${ip}`, limits.maxFailuresPerIp],
    [`email:${email.trim().toLowerCase()}`, limits.maxFailuresPerEmail],
  ];
}

/** One process's counts, over a sliding window (without VERICASE_REDIS_URL, and as Redis's fallback). */
export class MemoryLoginLimiter implements LoginLimiter {
  readonly #limits: LoginLimits;
  readonly #failures = new Map<string, number[]>();

  constructor(limits: LoginLimits) {
    this.#limits = limits;
  }

  #recent(key: string, now: number): number[] {
    const since = now - this.#limits.windowMinutes * 60_000;
    const list = (this.#failures.get(key) ?? []).filter((t) => t > since);
    if (list.length) this.#failures.set(key, list);
    else this.#failures.delete(key);
    return list;
  }

  async blockedFor(ip: string, email: string): Promise<number> {
    const now = Date.now();
    const windowMs = this.#limits.windowMinutes * 60_000;
    let wait = 0;
    for (const [key, max] of counters(this.#limits, ip, email)) {
      if (max <= 0) continue;
      const list = this.#recent(key, now);
      if (list.length >= max)
        wait = Math.max(wait, Math.ceil((list[list.length - max] + windowMs - now) / 1000));
    }
    return wait;
  }

  async failed(ip: string, email: string): Promise<void> {
    const now = Date.now();
    if (this.#failures.size > 100_000) this.#failures.clear();
    for (const [key] of counters(this.#limits, ip, email)) {
      const list = this.#recent(key, now);
      list.push(now);
      this.#failures.set(key, list);
    }
  }

  async close(): Promise<void> {}
}

/**
 * Counts shared by every API process through Redis (VERICASE_REDIS_URL): one counter per IP and per
 * e-mail (hashed: no address in Redis) that starts at the first failure and expires with its window.
 * When Redis cannot answer, this process's own counts are used instead (never no limit at all).
 */
export class RedisLoginLimiter implements LoginLimiter {
  readonly #limits: LoginLimits;
  readonly #redis: Redis;
  readonly #fallback: MemoryLoginLimiter;
  readonly #prefix: string;

  constructor(
    limits: LoginLimits,
    redis: Redis,
    opts: { prefix?: string; onError?: (err: Error) => void } = {},
  ) {
    this.#limits = limits;
    this.#redis = redis;
    // a connection error is reported once until Redis answers again (ioredis retries on its own)
    let reported = false;
    redis.on('error', (err: Error) => {
      if (!reported) opts.onError?.(err);
      reported = true;
    });
    redis.on('ready', () => {
      reported = false;
    });
    this.#fallback = new MemoryLoginLimiter(limits);
    this.#prefix = opts.prefix ?? 'vericase-login:';
  }

  #key(counter: string): string {
    return this.#prefix + createHash('sha256').update(counter).digest('hex').slice(0, 32);
  }

  async blockedFor(ip: string, email: string): Promise<number> {
    try {
      let wait = 0;
      for (const [counter, max] of counters(this.#limits, ip, email)) {
        if (max <= 0) continue;
        const key = this.#key(counter);
        const [[, count], [, ttl]] = (await this.#redis.multi().get(key).pttl(key).exec()) as [
          [Error | null, string | null],
          [Error | null, number],
        ];
        if (Number(count ?? 0) >= max) wait = Math.max(wait, Math.ceil(Math.max(ttl, 1000) / 1000));
      }
      return wait;
    } catch {
      return this.#fallback.blockedFor(ip, email);
    }
  }

  async failed(ip: string, email: string): Promise<void> {
    await this.#fallback.failed(ip, email);
    try {
      const windowMs = this.#limits.windowMinutes * 60_000;
      const tx = this.#redis.multi();
      for (const [counter] of counters(this.#limits, ip, email)) {
        const key = this.#key(counter);
        // the window starts at the first failure: NX sets the expiry only when there is none
        tx.incr(key).pexpire(key, windowMs, 'NX');
      }
      await tx.exec();
    } catch {
      // counted in this process already
    }
  }

  async close(): Promise<void> {
    this.#redis.disconnect();
  }
}
