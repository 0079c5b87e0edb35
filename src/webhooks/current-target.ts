import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/** What a delivery is sent with: its webhook's state now. */
export interface WebhookTarget {
  status: string;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
  signature: string;
  signature_header: string | null;
}

/**
 * How long a read of a webhook serves the attempts that start after it. Of the order of the gap
 * between a claim's own read of the webhook and the first attempt it starts, which a change can
 * fall in just the same; a line of one case to a fast endpoint (a delivery a millisecond) then
 * costs one query per FRESH_MS rather than one per delivery.
 */
const FRESH_MS = 20;

type Waiter = { resolve: (t: WebhookTarget | undefined) => void; reject: (e: unknown) => void };

/**
 * Reads the current state of webhooks for the deliveries about to be sent: a claimed delivery can
 * wait in its line for minutes behind a hanging endpoint (up to the per-webhook cap of 32 attempts
 * of one timeout each), during which the webhook may be deleted, set offline, re-pointed or given a
 * new secret. Sent with what the claim had read, a deleted webhook's old URL kept receiving POSTs
 * signed with its old secret for minutes after its DELETE answered 204.
 *
 * Reads are batched: one query at a time, by primary key, for every webhook asked for since the
 * query before it started, so lines that fall ready together (many cases of a webhook, many
 * webhooks) share one round trip. An answer comes from a read that started at most FRESH_MS before
 * it was asked: a change committed earlier than that is seen by every attempt.
 */
export class WebhookTargets {
  readonly #db: Db;
  #asked = new Map<string, Waiter[]>();
  #reading = false;
  /** The latest read of each webhook (undefined: it no longer exists), with when it started. */
  readonly #read = new Map<string, { at: number; target: WebhookTarget | undefined }>();

  constructor(db: Db) {
    this.#db = db;
  }

  /** The webhook's current state, or undefined when it no longer exists. */
  current(webhookId: string): Promise<WebhookTarget | undefined> {
    const read = this.#read.get(webhookId);
    if (read && performance.now() - read.at < FRESH_MS) return Promise.resolve(read.target);
    return new Promise((resolve, reject) => {
      const waiting = this.#asked.get(webhookId);
      if (waiting) waiting.push({ resolve, reject });
      else this.#asked.set(webhookId, [{ resolve, reject }]);
      // at once: the lines that fall ready while this read runs ask together in the next one
      if (!this.#reading) void this.#readAll();
    });
  }

  async #readAll(): Promise<void> {
    this.#reading = true;
    try {
      while (this.#asked.size) {
        const batch = this.#asked;
        this.#asked = new Map();
        const at = performance.now();
        try {
          const found = await readTargets(this.#db, [...batch.keys()]);
          // reads too old to serve anyone are forgotten, so the map holds the webhooks sent to lately
          for (const [id, read] of this.#read) if (at - read.at >= FRESH_MS) this.#read.delete(id);
          for (const [id, waiting] of batch) {
            const target = found.get(id);
            this.#read.set(id, { at, target });
            for (const w of waiting) w.resolve(target);
          }
        } catch (err) {
          for (const waiting of batch.values()) for (const w of waiting) w.reject(err);
        }
      }
    } finally {
      this.#reading = false;
    }
  }
}

async function readTargets(db: Db, ids: string[]): Promise<Map<string, WebhookTarget>> {
  const { rows } = await sql<WebhookTarget & { id: string }>`
    select id, status, url, secret, previous_secret, previous_secret_expires_at, signature, signature_header
    from webhooks where id = any(cast(${ids} as uuid[]))
  `.execute(db);
  return new Map(rows.map(({ id, ...t }) => [id, t]));
}
