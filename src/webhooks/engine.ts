import type pino from 'pino';
import type { Db } from '../db/connect.ts';
import { dispatchEvents } from './build-deliveries.ts';
import {
  type AttemptOutcome,
  attempt,
  claimFromWebhooks,
  hasWork,
  recordOutcomes,
  releaseExpiredLeases,
  scanWebhookHeads,
} from './deliver.ts';
import { allocateClaims } from './fair-share.ts';
import { webhookTuning } from './tuning.ts';

/** Most deliveries claimed in one turn. */
const CLAIM_BATCH = 128;
/** Most webhooks with pending deliveries looked at in one turn (the scan resumes after them next turn). */
const HEAD_SCAN = 500;
/** How often expired leases (deliveries of a dead process) are looked for. */
const LEASE_CHECK_MS = 1000;

/**
 * The delivery loop of a worker process. Each turn: record finished attempts, dispatch new events
 * from the outbox into deliveries, claim due deliveries and start their requests without waiting
 * for them. When there is nothing to do it sleeps `pollMs` (or until woken). Every step is a
 * short transaction with `skip locked`, so any number of worker processes can run it together.
 *
 * Claims are fair: each turn looks at the webhooks that have due deliveries and shares the free
 * request slots between their workspaces, then between each workspace's webhooks (fair-share.ts),
 * under a per-workspace and a per-webhook cap. One workspace's backlog or hanging endpoints thus
 * never keep another workspace's due deliveries waiting for a slot.
 */
export class WebhookEngine {
  readonly #db: Db;
  readonly #logger: pino.Logger;
  readonly #allowPrivate: () => boolean;
  readonly #inFlight = new Map<string, number>();
  readonly #inFlightByWorkspace = new Map<string, number>();
  #inFlightTotal = 0;
  /** Where the next scan of webhook heads starts (null: from the first webhook). */
  #headCursor: string | null = null;
  #rotation = 0;
  #leasesCheckedAt = 0;
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

  /** The delivery loop is running (the readiness check). */
  get running(): boolean {
    return this.#running;
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
    if (Date.now() - this.#leasesCheckedAt >= LEASE_CHECK_MS) {
      this.#leasesCheckedAt = Date.now();
      const released = await releaseExpiredLeases(this.#db);
      if (released)
        this.#logger.warn({ count: released }, 'webhook deliveries of a lost attempt are due again');
    }
    if (free > 0 && (await this.#claim(Math.min(free, CLAIM_BATCH)))) busy = true;
    return busy;
  }

  /** Claims up to `free` due deliveries, shared fairly, and starts them; true when it claimed any. */
  async #claim(free: number): Promise<boolean> {
    const scan = await scanWebhookHeads(this.#db, this.#headCursor, HEAD_SCAN);
    // cut short: the next turn goes on from there; otherwise it starts from the first webhook again
    this.#headCursor = scan.scanned >= HEAD_SCAN ? scan.last : null;
    const due = scan.heads.filter((h) => h.due);
    if (!due.length) return false;
    const quotas = allocateClaims(
      due,
      this.#inFlight,
      this.#inFlightByWorkspace,
      {
        free,
        perWorkspace: webhookTuning.workspaceMaxInFlight,
        perWebhook: webhookTuning.webhookMaxInFlight,
      },
      this.#rotation++,
    );
    const claimed = await claimFromWebhooks(this.#db, quotas);
    for (const d of claimed) this.#send(d);
    return claimed.length > 0;
  }

  /**
   * Starts one attempt. Its webhook's and workspace's slot is held until the outcome is recorded
   * (not just until the response): the cap then bounds the deliveries this process has `sending`.
   */
  #send(d: Parameters<typeof attempt>[0]): void {
    this.#inFlightTotal++;
    add(this.#inFlight, d.webhook_id, 1);
    add(this.#inFlightByWorkspace, d.workspace_id, 1);
    attempt(d, this.#allowPrivate)
      .then((o) => {
        this.#outcomes.push(o);
      })
      .catch((err) => {
        this.#logger.error({ err, delivery: d.id }, 'webhook attempt crashed');
        this.#releaseSlot(d);
      })
      .finally(() => {
        this.#inFlightTotal--;
        this.wake();
      });
  }

  #releaseSlot(d: { webhook_id: string; workspace_id: string }): void {
    add(this.#inFlight, d.webhook_id, -1);
    add(this.#inFlightByWorkspace, d.workspace_id, -1);
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
      } finally {
        for (const o of batch) this.#releaseSlot(o.delivery);
      }
    }
  }

  /** Resolves the next time the loop finds nothing to do (tests, benchmarks). */
  whenIdle(): Promise<void> {
    return new Promise((resolve) => this.#idle.add(resolve));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Adds to a counter of a map, dropping it at zero. */
function add(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}
