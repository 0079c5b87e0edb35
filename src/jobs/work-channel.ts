import { sql } from 'kysely';
import pg from 'pg';
import type pino from 'pino';
import type { Db } from '../db/connect.ts';
import { FailureLog } from '../ops/failure-log.ts';

/**
 * Work announced between processes on PostgreSQL (LISTEN/NOTIFY on one channel). The workers poll
 * slowly at rest (the webhook loop once a second, the job workers every `jobPollMs`), and a process
 * that runs no workers (`VERICASE_RUN_WORKERS=false`) would otherwise leave its work waiting for
 * their next poll. The payload names what to wake:
 * - `webhooks`: events were recorded (src/webhooks/outbox-notify.ts);
 * - `job:<queue>`: a delayed job of that queue fell due (src/jobs/queue.ts). Jobs sent for now
 *   wake the workers through pg-boss's own NOTIFY.
 *
 * An announcement is sent on its own, never in a writing transaction: a transaction that notifies
 * takes a database-wide lock at commit, which would serialise every write. It may therefore arrive
 * before the commit it is about; the woken side copes (the webhook loop polls fast for a second; a
 * job worker that finds nothing waits for its next wake or poll).
 */
export const WORK_CHANNEL = 'vericase_work';

/** Sends one announcement; a failure only costs the wake (logged at debug). */
export function announceWork(db: Db, topic: string, logger: pino.Logger): void {
  sql`select pg_notify(${WORK_CHANNEL}, ${topic})`
    .execute(db)
    .catch((err) => logger.debug({ err, topic }, 'work not announced'));
}

/** A lost listening connection is opened again after this long. */
const RECONNECT_MS = 1000;

/**
 * Listens for the announcements on a connection of its own and calls the handlers of their topic.
 * After every (re)connection it calls every handler once: what was announced while it was away is
 * not lost (the polls find it), but this finds it sooner.
 */
export class WorkListener {
  readonly #connectionString: string;
  readonly #failures: FailureLog;
  readonly #handlers = new Map<string, () => void>();
  #client: pg.Client | undefined;
  #running = false;
  #retry: NodeJS.Timeout | undefined;

  constructor(connectionString: string, logger: pino.Logger) {
    this.#connectionString = connectionString;
    this.#failures = new FailureLog(logger, 'work listener lost its connection: reconnecting', 'warn');
  }

  /** Calls `handler` on each announcement of `topic` (one handler per topic). */
  on(topic: string, handler: () => void): void {
    this.#handlers.set(topic, handler);
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

  #callAll(): void {
    for (const handler of this.#handlers.values()) handler();
  }

  async #connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.#connectionString });
    const lost = (err?: Error) => {
      if (this.#client !== client) return;
      this.#client = undefined;
      client.end().catch(() => undefined);
      if (!this.#running) return;
      this.#failures.failed(err);
      this.#retry = setTimeout(() => void this.#connect(), RECONNECT_MS);
      this.#retry.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (n) => {
      if (n.channel === WORK_CHANNEL) this.#handlers.get(n.payload ?? '')?.();
    });
    this.#client = client;
    try {
      await client.connect();
      await client.query(`listen ${WORK_CHANNEL}`);
      if (this.#client !== client) return void client.end().catch(() => undefined);
      this.#failures.succeeded();
      this.#callAll();
    } catch (err) {
      lost(err as Error);
    }
  }
}
