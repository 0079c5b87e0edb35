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
 *
 * When an entry expires, the next request of the query counts again, and the requests that arrive
 * while it does get the expired estimate instead of each counting too (for at most `graceMs` past
 * the TTL). Without this, every request in that window ran the capped count: where the count is
 * slow (the review queue's, 0.1 to 0.4 s at 1,000,000 cases), ten connections reading one list
 * all paid it each time the estimate expired, and that was the list's p99 (about 1 s).
 *
 * With no estimate kept at all (after a start, or a minute unread), the requests of a query that
 * arrive while one of them counts it wait for that count (`countInFlight`) and share its estimate,
 * instead of each running the capped count. Only an estimate is shared: when the count ends with an
 * exact total (the list is under the cap) or fails, each waiting request counts for itself, so an
 * exact total is always one the request counted.
 */
interface Entry {
  count: number;
  /** The query was counted (not the planner's estimate): a page ending at it ends the list. */
  counted: boolean;
  at: number;
  /** A request of this process is counting the query again. */
  refreshing: boolean;
}

export class CountEstimates {
  ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #graceMs: number;
  readonly #entries = new Map<string, Entry>();
  readonly #counting = new Map<string, Promise<number | undefined>>();

  constructor(ttlMs: number, maxEntries = 1000, now: () => number = Date.now, graceMs = 60_000) {
    this.ttlMs = ttlMs;
    this.#maxEntries = maxEntries;
    this.#now = now;
    this.#graceMs = graceMs;
  }

  /** A fresh estimate of the query; undefined when it is to be estimated (again). */
  get(key: string): number | undefined {
    const entry = this.#live(key);
    return entry && this.#now() - entry.at < this.ttlMs ? entry.count : undefined;
  }

  /**
   * For a request about to count the query: a fresh estimate, or an expired one while another
   * request counts it again (undefined: this request counts, and is the one that does until
   * `release`; an expired entry is then marked as being counted).
   */
  claim(key: string): number | undefined {
    const entry = this.#live(key);
    if (!entry) return undefined;
    if (this.#now() - entry.at < this.ttlMs || entry.refreshing) return entry.count;
    entry.refreshing = true;
    return undefined;
  }

  /** The key's entry, fresh or expired within the grace period (an older one is dropped). */
  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (entry && this.#now() - entry.at >= this.ttlMs + this.#graceMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /**
   * The count of the query a request of this process is running, when no estimate is kept: it
   * resolves to the estimate it ends with, or to undefined (an exact total, or a failure: count).
   */
  countInFlight(key: string): Promise<number | undefined> | undefined {
    return this.#counting.get(key);
  }

  /** This request counts the query: the returned function ends it with its estimate (or undefined). */
  startCount(key: string): (estimate: number | undefined) => void {
    let end!: (estimate: number | undefined) => void;
    const counting = new Promise<number | undefined>((resolve) => {
      end = resolve;
    });
    this.#counting.set(key, counting);
    return (estimate) => {
      if (this.#counting.get(key) === counting) this.#counting.delete(key);
      end(estimate);
    };
  }

  /** The request that claimed the key is done counting (whatever came of it). */
  release(key: string): void {
    const entry = this.#entries.get(key);
    if (entry) entry.refreshing = false;
  }

  /** Whether the kept figure of the query was counted rather than estimated. */
  counted(key: string): boolean {
    return this.#entries.get(key)?.counted === true;
  }

  set(key: string, count: number, counted = false): void {
    if (this.ttlMs <= 0) return;
    this.#entries.delete(key);
    // a Map iterates in insertion order: the first key is the oldest entry
    if (this.#entries.size >= this.#maxEntries)
      this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(key, { count, counted, at: this.#now(), refreshing: false });
  }

  /** The query's total is exact again (it no longer matches more than the cap): no estimate. */
  forget(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
    this.#counting.clear();
  }
}

/** The process's cache; buildApp sets its TTL from the configuration. */
export const countEstimates = new CountEstimates(5000);
