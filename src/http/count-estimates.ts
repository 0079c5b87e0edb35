/**
 * Estimated list totals, kept a few seconds per process. Above EXACT_COUNT_UP_TO matches a list's
 * total is the planner's estimate (src/http/list-query.ts fetchPage), which costs two statements
 * beyond the page (a capped count, then EXPLAIN). A list read again and again (a console tab, a
 * dashboard, a client polling) reuses the estimate for the same query, parameters included (the
 * workspace is one of them), for `ttlMs`: its page is then the only statement. Only estimates are
 * kept, never exact totals, and an estimate is already approximate: reusing it for seconds changes
 * nothing a caller can rely on. Nothing depends on the cache: another process simply estimates
 * again. VERICASE_LIST_ESTIMATE_TTL_MS (config.listEstimateTtlMs, set by buildApp; default 5000;
 * 0 turns it off).
 */
export class CountEstimates {
  ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { count: number; at: number }>();

  constructor(ttlMs: number, maxEntries = 1000, now: () => number = Date.now) {
    this.ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
    this.#now = now;
  }

  get(key: string): number | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (this.#now() - entry.at >= this.ttlMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.count;
  }

  set(key: string, count: number): void {
    if (this.ttlMs <= 0) return;
    this.#entries.delete(key);
    // a Map iterates in insertion order: the first key is the oldest entry
    if (this.#entries.size >= this.#maxEntries)
      this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, { count, at: this.#now() });
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** The process's cache; buildApp sets its TTL from the configuration. */
export const countEstimates = new CountEstimates(5000);
