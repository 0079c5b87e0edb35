import type pino from 'pino';
import type { Db } from '../db/connect.ts';
import { dispatchEvents } from './build-deliveries.ts';
import { type AttemptOutcome, attempt, claimDueDeliveries, hasWork, recordOutcomes } from './deliver.ts';
import { webhookTuning } from './tuning.ts';

/** Requests in flight for one webhook in this process: a slow receiver cannot take every slot. */
const PER_WEBHOOK_IN_FLIGHT = 64;
const CLAIM_BATCH = 128;

/**
 * The delivery loop of a worker process. Each turn: record finished attempts, dispatch new events
 * from the outbox into deliveries, claim due deliveries and start their requests without waiting
 * for them. When there is nothing to do it sleeps `pollMs` (or until woken). Every step is a
 * short transaction with `skip locked`, so any number of worker processes can run it together.
 */
export class WebhookEngine {
  readonly #db: Db;
  readonly #logger: pino.Logger;
  readonly #allowPrivate: () => boolean;
  readonly #inFlight = new Map<string, number>();
  #inFlightTotal = 0;
  #outcomes: AttemptOutcome[] = [];
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  #idle = new Set<() => void>();

  constructor(db: Db, logger: pino.Logger, allowPrivate: () => boolean) {
    this.#db = db;
    this.#logger = logger;
    this.#allowPrivate = allowPrivate;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Runs a turn now instead of at the end of the idle sleep. */
  wake(): void {
    this.#wake?.();
  }

  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.wake();
    await this.#loop;
    // requests already sent finish (bounded by the timeout) and are recorded
    const deadline = Date.now() + webhookTuning.timeoutMs + 1000;
    while (this.#inFlightTotal > 0 && Date.now() < deadline) await sleep(20);
    await this.#flush().catch((err) => this.#logger.error({ err }, 'webhook outcomes not recorded'));
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let busy = false;
      try {
        busy = await this.#turn();
      } catch (err) {
        this.#logger.error({ err }, 'webhook delivery loop error');
        await sleep(500);
      }
      if (!this.#running) break;
      if (!busy) {
        for (const resolve of this.#idle) resolve();
        this.#idle.clear();
        await new Promise<void>((resolve) => {
          const timer = setTimeout(done, webhookTuning.pollMs);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          this.#wake = done;
        });
        this.#wake = undefined;
      } else {
        await new Promise((r) => setImmediate(r));
      }
    }
  }

  /** One turn; true when it did something (so the next turn follows immediately). */
  async #turn(): Promise<boolean> {
    let busy = false;
    if (this.#outcomes.length) {
      await this.#flush();
      busy = true;
    }
    const free = webhookTuning.maxInFlight - this.#inFlightTotal;
    if (!busy && !(await hasWork(this.#db))) return false;
    const dispatched = await dispatchEvents(this.#db);
    if (dispatched.events) busy = true;
    if (free > 0) {
      const saturated = [...this.#inFlight].filter(([, n]) => n >= PER_WEBHOOK_IN_FLIGHT).map(([id]) => id);
      const claimed = await claimDueDeliveries(this.#db, Math.min(free, CLAIM_BATCH), saturated);
      for (const d of claimed) this.#send(d);
      if (claimed.length) busy = true;
    }
    return busy;
  }

  #send(d: Parameters<typeof attempt>[0]): void {
    this.#inFlightTotal++;
    this.#inFlight.set(d.webhook_id, (this.#inFlight.get(d.webhook_id) ?? 0) + 1);
    attempt(d, this.#allowPrivate)
      .then((o) => {
        this.#outcomes.push(o);
      })
      .catch((err) => this.#logger.error({ err, delivery: d.id }, 'webhook attempt crashed'))
      .finally(() => {
        this.#inFlightTotal--;
        const n = (this.#inFlight.get(d.webhook_id) ?? 1) - 1;
        if (n <= 0) this.#inFlight.delete(d.webhook_id);
        else this.#inFlight.set(d.webhook_id, n);
        this.wake();
      });
  }

  async #flush(): Promise<void> {
    while (this.#outcomes.length) {
      const batch = this.#outcomes.splice(0, 1000);
      try {
        await recordOutcomes(this.#db, batch);
      } catch (err) {
        // not recorded: the lease expires and the delivery is attempted again (at least once)
        this.#logger.error({ err, count: batch.length }, 'webhook outcomes not recorded');
        return;
      }
    }
  }

  /** Resolves the next time the loop finds nothing to do (tests, benchmarks). */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => this.#idle.add(resolve));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
