import { sql } from 'kysely';
import pg from 'pg';
import type pino from 'pino';
import type { Db } from '../db/connect.ts';
import { onWebhookWork } from '../events/outbox-signal.ts';

/**
 * Webhook work announced between processes on PostgreSQL (LISTEN/NOTIFY). A process that records
 * events but runs no delivery loop (`VERICASE_RUN_WORKERS=false`) tells the worker processes, which
 * otherwise would find the events only at their next idle probe (a second apart when quiet).
 *
 * The NOTIFY is sent on its own, after the hint, never in the writing transaction: a transaction
 * that notifies takes a database-wide lock at commit, which would serialise every write. So it may
 * arrive before the commit: the loop then polls fast for a second (engine.ts, `nudge`), which
 * covers it. At most one NOTIFY per ANNOUNCE_EVERY_MS per process: under a steady flow the loops
 * are polling fast anyway.
 */
export const WEBHOOK_WORK_CHANNEL = 'vericase_webhook_work';
const ANNOUNCE_EVERY_MS = 200;
/** A lost listening connection is opened again after this long. */
const RECONNECT_MS = 1000;

/** Sends the process's hints on to the other processes; returns the unsubscribe. */
export function announceWebhookWork(db: Db, logger: pino.Logger): () => void {
  let last = 0;
  return onWebhookWork(() => {
    const now = Date.now();
    if (now - last < ANNOUNCE_EVERY_MS) return;
    last = now;
    // the hint comes from inside the writer's transaction: send it on the pool, out of it
    setImmediate(() => {
      sql`select pg_notify(${WEBHOOK_WORK_CHANNEL}, '')`
        .execute(db)
        .catch((err) => logger.debug({ err }, 'webhook work not announced'));
    });
  });
}

/**
 * Listens for other processes' announcements on a connection of its own and calls `onWork` for
 * each, and once after every (re)connection: what was announced while it was away is not lost,
 * since the loop's slow probe finds it anyway, but this finds it sooner.
 */
export class WebhookWorkListener {
  readonly #connectionString: string;
  readonly #onWork: () => void;
  readonly #logger: pino.Logger;
  #client: pg.Client | undefined;
  #running = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(connectionString: string, onWork: () => void, logger: pino.Logger) {
    this.#connectionString = connectionString;
    this.#onWork = onWork;
    this.#logger = logger;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    void this.#connect();
  }

  async stop(): Promise<void> {
    this.#running = false;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#connectionString });
    const lost = (err?: Error) => {
      if (this.#client !== client) return;
      this.#client = undefined;
      client.end().catch(() => undefined);
      if (!this.#running) return;
      this.#logger.warn({ err }, 'webhook work listener lost its connection: reconnecting');
      this.#retry = setTimeout(() => void this.#connect(), RECONNECT_MS);
      this.#retry.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', () => this.#onWork());
    this.#client = client;
    try {
      await client.connect();
      await client.query(`listen ${WEBHOOK_WORK_CHANNEL}`);
      if (this.#client !== client) return void client.end().catch(() => undefined);
      this.#onWork();
    } catch (err) {
      lost(err as Error);
    }
  }
}
