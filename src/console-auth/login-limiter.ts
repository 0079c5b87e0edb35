/**
 * Failed sign-ins counted per client IP and per e-mail over a sliding window; past the limit a
 * sign-in is refused (429) before its password is even checked, so guessing stops for the rest of
 * the window. A success clears the e-mail's count. In memory: per process (with several API
 * processes an attacker gets each process's allowance; a shared store can come with Redis).
 */
export interface LoginLimits {
  maxFailuresPerEmail: number;
  maxFailuresPerIp: number;
  windowMinutes: number;
}

export class LoginLimiter {
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

  /** Seconds to wait when the IP or the e-mail is over its limit, else 0. */
  blockedFor(ip: string, email: string): number {
    const now = Date.now();
    const windowMs = this.#limits.windowMinutes * 60_000;
    let wait = 0;
    for (const [key, max] of [
      [`ip:${ip}`, this.#limits.maxFailuresPerIp],
      [`email:${email.toLowerCase()}`, this.#limits.maxFailuresPerEmail],
    ] as const) {
      if (max <= 0) continue;
      const list = this.#recent(key, now);
      if (list.length >= max)
        wait = Math.max(wait, Math.ceil((list[list.length - max] + windowMs - now) / 1000));
    }
    return wait;
  }

  failed(ip: string, email: string): void {
    const now = Date.now();
    if (this.#failures.size > 100_000) this.#failures.clear();
    for (const key of [`ip:${ip}`, `email:${email.toLowerCase()}`]) {
      const list = this.#recent(key, now);
      list.push(now);
      this.#failures.set(key, list);
    }
  }

  succeeded(email: string): void {
    this.#failures.delete(`email:${email.toLowerCase()}`);
  }
}
