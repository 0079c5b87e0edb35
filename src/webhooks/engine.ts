import { randomUUID } from 'node:crypto';
import type pino from 'pino';
import type { Db } from '../db/connect.ts';
import { onWebhookWork } from '../events/outbox-signal.ts';
import { FailureLog } from '../ops/failure-log.ts';
import { DISPATCH_BATCH, dispatchEvents, vacuumOutbox } from './build-deliveries.ts';
import { WebhookTargets } from './current-target.ts';
import {
  type AttemptOutcome,
  attempt,
  type ClaimedDelivery,
  claimFromWebhooks,
  leaseMs,
  probeWork,
  recordOutcomes,
  releaseClaims,
  releaseExpiredLeases,
  renewLeases,
  scanWebhookHeads,
} from './deliver.ts';
import { allocateClaims } from './fair-share.ts';
import { webhookTuning } from './tuning.ts';

/** Most deliveries claimed in one turn. */
const CLAIM_BATCH = 128;
/** Most webhooks with pending deliveries looked at in one turn (the scan resumes after them next turn). */
const HEAD_SCAN = 500;
/** The loop vacuums the outbox this long after it dispatched any event (or after webhookTuning.outboxVacuumEvents). */
const OUTBOX_VACUUM_MS = 60_000;
/** How often expired leases (deliveries of a dead process) are looked for. */
const LEASE_CHECK_MS = 1000;
/** After its last sign of work (a turn that did something, a hint), the loop keeps its fast poll this long. */
const ACTIVE_MS = 1000;
/**
 * A hint ends a long sleep this long after it: the hint comes from inside the recording transaction,
 * whose commit usually follows within a few milliseconds (if not, the next fast poll finds it).
 */
const NUDGE_DELAY_MS = 10;

/**
 * The delivery loop of a worker process. Each turn: record finished attempts, dispatch new events
 * from the outbox into deliveries, claim due deliveries and start their requests without waiting
 * for them. Unless a full batch says more is waiting, it then sleeps `pollMs` (or until woken: a
 * finished attempt, a new or replayed webhook wakes it). Every step is a short transaction with
 * `skip locked`, so any number of worker processes can run it together.
 *
 * When nothing has happened for a second it sleeps `idlePollMs` instead (or until the next retry
 * is due or lease lost, when sooner): probing the outbox twenty times a second cost an idle server
 * ~5% of a core (node and PostgreSQL together) and every request a share of it. Events recorded in
 * this process (src/events/outbox-signal.ts) or announced by another one (outbox-notify.ts) put it
 * back on the fast poll at once, so the first event after a quiet spell waits no longer than before.
 *
 * Claims are fair: each turn looks at the webhooks that have due deliveries and shares the free
 * request slots between their workspaces, then between each workspace's webhooks (fair-share.ts),
 * under a per-workspace and a per-webhook cap. One workspace's backlog or hanging endpoints thus
 * never keep another workspace's due deliveries waiting for a slot.
 */
export class WebhookEngine {
  readonly #db: Db;
  readonly #logger: pino.Logger;
  readonly #loopFailures: FailureLog;
  readonly #allowPrivate: () => boolean;
  readonly #inFlight = new Map<string, number>();
  readonly #inFlightByWorkspace = new Map<string, number>();
  /**
   * Per webhook and case, the end of its line: the promise of the last attempt started or queued in
   * this process. Each attempt of a line starts once the one before it has its answer (success or
   * failure), so a case's first attempts arrive in the order they were claimed (emission order);
   * lines of other cases run beside it, so one webhook still takes many cases' events at once.
   */
  readonly #lines = new Map<string, Promise<void>>();
  /** Claimed deliveries the stopping loop did not attempt: given back by stop(). */
  readonly #unsent = new Map<string, number>();
  /** Claimed deliveries not attempted because their webhook went offline meanwhile: given back by the next turn. */
  readonly #givenBack = new Map<string, ClaimedDelivery>();
  readonly #targets: WebhookTargets;
  /** Claimed deliveries whose outcome is not recorded yet, with their attempt count: leases renewed. */
  readonly #held = new Map<string, number>();
  #leasesRenewedAt = Date.now();
  #inFlightTotal = 0;
  /** Where the next scan of webhook heads starts (null: from the first webhook). */
  #headCursor: string | null = null;
  #rotation = 0;
  #leasesCheckedAt = 0;
  #outcomes: AttemptOutcome[] = [];
  #running = false;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  /** Cuts a long idle sleep down to NUDGE_DELAY_MS from now (set while the loop sleeps long). */
  #shorten: (() => void) | undefined;
  /** Until when the loop keeps its fast poll. */
  #activeUntil = 0;
  /** From the last probe: when the next retry falls due or lease is lost (null: none). */
  #nextInMs: number | null = null;
  #unsubscribe: (() => void) | undefined;
  /** The length of the sleep the loop is in (null: awake). */
  #sleepingMs: number | null = null;
  #idle = new Set<() => void>();
  /**
   * The outbox's deleted rows stay in its pages until a vacuum, and every probe and every dispatch
   * reads past them. The embedded database has no autovacuum at all; PostgreSQL's wakes once a
   * minute, by when a steady flow of creates has left ~200,000 of them (the probe and the dispatch's
   * `delete` then took 1.3 ms each instead of ~0.1). So the loop vacuums the outbox itself (a few ms,
   * never waiting for another process's vacuum) after `webhookTuning.outboxVacuumEvents` dispatched events, or
   * OUTBOX_VACUUM_MS after it dispatched any.
   */
  readonly #vacuumOutbox: boolean;
  /** Names this process's claims (a line another process is sending is left to it). */
  readonly #owner = randomUUID();
  /** Other processes may claim from the same database (PostgreSQL): claims take turns. */
  readonly #sharedDatabase: boolean;
  #dispatchedSinceVacuum = 0;
  #outboxVacuumedAt = Date.now();

  constructor(
    db: Db,
    logger: pino.Logger,
    allowPrivate: () => boolean,
    options: { vacuumOutbox?: boolean; sharedDatabase?: boolean } = {},
  ) {
    this.#db = db;
    this.#logger = logger;
    this.#loopFailures = new FailureLog(logger, 'webhook delivery loop error', 'error');
    this.#allowPrivate = allowPrivate;
    this.#targets = new WebhookTargets(db);
    this.#vacuumOutbox = options.vacuumOutbox ?? true;
    this.#sharedDatabase = options.sharedDatabase ?? false;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#activeUntil = Date.now() + ACTIVE_MS;
    this.#unsubscribe = onWebhookWork((committed) => this.nudge(committed));
    this.#loop = this.#run();
  }

  /** How long the sleep the loop is in was set to last, or null while it works (tests). */
  get sleepingMs(): number | null {
    return this.#sleepingMs;
  }

  /** The delivery loop is running (the readiness check). */
  get running(): boolean {
    return this.#running;
  }

  /** Runs a turn now instead of at the end of the idle sleep. */
  wake(): void {
    this.#wake?.();
  }

  /**
   * Work may have appeared: poll fast for a while, without spinning on every hint. Committed work
   * gets a turn at once; work maybe in a transaction not yet committed, NUDGE_DELAY_MS from now
   * when the loop sleeps long.
   */
  nudge(committed = false): void {
    this.#activeUntil = Date.now() + ACTIVE_MS;
    if (committed) this.wake();
    else this.#shorten?.();
  }

  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.wake();
    await this.#loop;
    // requests already sent finish (bounded by the timeout) and are recorded
    const deadline = Date.now() + webhookTuning.timeoutMs + 1000;
    while (this.#inFlightTotal > 0 && Date.now() < deadline) await sleep(20);
    await this.#flush().catch((err) => this.#logger.error({ err }, 'webhook outcomes not recorded'));
    // those still waiting in a webhook's line were never sent: due again now, not after their lease
    const unsent = new Map(this.#unsent);
    this.#unsent.clear();
    await releaseClaims(this.#db, unsent).catch((err) =>
      this.#logger.error({ err }, 'unsent webhook deliveries not released (due again after their lease)'),
    );
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let turn: Turn = { did: false, more: false };
      try {
        turn = await this.#turn();
        this.#loopFailures.succeeded();
      } catch (err) {
        this.#loopFailures.failed(err);
        await sleep(500);
      }
      if (!this.#running) break;
      if (!turn.did) {
        for (const resolve of this.#idle) resolve();
        this.#idle.clear();
      }
      if (turn.did) this.#activeUntil = Date.now() + ACTIVE_MS;
      if (!turn.more) {
        const ms = this.#sleepMs();
        this.#sleepingMs = ms;
        await new Promise<void>((resolve) => {
          let timer = setTimeout(done, ms);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          this.#wake = done;
          if (ms > webhookTuning.pollMs) {
            this.#shorten = () => {
              this.#shorten = undefined;
              clearTimeout(timer);
              const soon = Math.min(NUDGE_DELAY_MS, webhookTuning.pollMs);
              timer = setTimeout(done, soon);
              this.#sleepingMs = soon;
            };
          }
        });
        this.#wake = undefined;
        this.#shorten = undefined;
        this.#sleepingMs = null;
      } else {
        await new Promise((r) => setImmediate(r));
      }
    }
  }

  /** How long the loop sleeps after a turn without known waiting work. */
  #sleepMs(): number {
    const fast = webhookTuning.pollMs;
    if (Date.now() < this.#activeUntil) return fast;
    const idle = Math.max(fast, webhookTuning.idlePollMs);
    return this.#nextInMs === null ? idle : Math.min(idle, Math.max(fast, this.#nextInMs));
  }

  /**
   * One turn. `did`: it did something (else the loop is idle). `more`: work is known to be waiting
   * (a full batch of events or of claims), so the next turn follows at once; otherwise the loop
   * sleeps `pollMs` or until woken. Under a steady flow of events a turn therefore dispatches what
   * `pollMs` gathered, in one transaction, instead of spinning on one request's events at a time
   * (six statements a turn: as many as the request that recorded the events).
   */
  async #turn(): Promise<Turn> {
    let did = false;
    let more = false;
    if (this.#outcomes.length || this.#givenBack.size) {
      await this.#flush();
      did = true;
    }
    // deliveries waiting in a webhook's line keep their claim: renewed well before it runs out
    // (a third of the lease), even on a turn that finds nothing else to do
    if (this.#held.size && Date.now() - this.#leasesRenewedAt >= leaseMs() / 3) {
      this.#leasesRenewedAt = Date.now();
      await renewLeases(this.#db, this.#held);
    }
    const free = webhookTuning.maxInFlight - this.#inFlightTotal;
    if (!did) {
      const probe = await probeWork(this.#db);
      this.#nextInMs = probe.nextInMs;
      if (!probe.work) return { did, more };
    }
    const dispatched = await dispatchEvents(this.#db, DISPATCH_BATCH);
    if (dispatched.events) did = true;
    if (dispatched.events >= DISPATCH_BATCH) more = true;
    this.#dispatchedSinceVacuum += dispatched.events;
    if (
      this.#vacuumOutbox &&
      this.#dispatchedSinceVacuum > 0 &&
      (this.#dispatchedSinceVacuum >= webhookTuning.outboxVacuumEvents ||
        Date.now() - this.#outboxVacuumedAt >= OUTBOX_VACUUM_MS)
    ) {
      this.#outboxVacuumedAt = Date.now();
      this.#dispatchedSinceVacuum = 0;
      await vacuumOutbox(this.#db);
    }
    if (Date.now() - this.#leasesCheckedAt >= LEASE_CHECK_MS) {
      this.#leasesCheckedAt = Date.now();
      const released = await releaseExpiredLeases(this.#db);
      if (released)
        this.#logger.warn({ count: released }, 'webhook deliveries of a lost attempt are due again');
    }
    if (free > 0) {
      const claim = await this.#claim(Math.min(free, CLAIM_BATCH));
      if (claim.claimed) did = true;
      if (claim.more) more = true;
    }
    return { did, more };
  }

  /**
   * Claims up to `free` due deliveries, shared fairly, and starts them. `more`: it took all it
   * asked for, or its scan of webhooks stopped short, so more may be due.
   */
  async #claim(free: number): Promise<{ claimed: number; more: boolean }> {
    const scan = await scanWebhookHeads(this.#db, this.#headCursor, HEAD_SCAN);
    // cut short: the next turn goes on from there; otherwise it starts from the first webhook again
    this.#headCursor = scan.scanned >= HEAD_SCAN ? scan.last : null;
    const due = scan.heads.filter((h) => h.due);
    if (!due.length) return { claimed: 0, more: this.#headCursor !== null };
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
    const claimed = await claimFromWebhooks(this.#db, quotas, this.#owner, this.#sharedDatabase);
    for (const d of claimed) this.#send(d);
    const asked = [...quotas.values()].reduce((a, b) => a + b, 0);
    return {
      claimed: claimed.length,
      more: (asked > 0 && claimed.length >= asked) || this.#headCursor !== null,
    };
  }

  /**
   * Queues one attempt at the end of its line (its webhook and its case): it starts when the
   * attempt before it has its answer (at once when the line is empty). One request at a time per
   * webhook and case keeps a case's first attempts in emission order at the receiver, which
   * concurrent requests did not (a receiver got Check.Approved before Check.Started); the lines of
   * other cases and other webhooks run concurrently, so a slow endpoint costs a busy webhook one
   * response time per event of a case, not per event of the workspace. Its
   * webhook's and workspace's slot is held until the outcome is recorded (not just until the
   * response): the cap then bounds the deliveries this process has `sending`, and the queued ones.
   */
  #send(d: Parameters<typeof attempt>[0]): void {
    this.#inFlightTotal++;
    add(this.#inFlight, d.webhook_id, 1);
    add(this.#inFlightByWorkspace, d.workspace_id, 1);
    if (this.#held.size === 0) this.#leasesRenewedAt = Date.now();
    this.#held.set(d.id, d.attempt_count);
    // a webhook's events of no case (the column allows them) share one line of their own
    const key = `${d.webhook_id}/${d.case_id ?? ''}`;
    const before = this.#lines.get(key);
    const run = async () => {
      if (!this.#running) {
        // stopping: not sent, given back by stop(); its slot is freed here, as it has no outcome
        this.#unsent.set(d.id, d.attempt_count);
        this.#releaseSlot(d);
        return;
      }
      try {
        // an attempt that waited behind another is sent with its webhook as it is now (the claim's
        // read may be minutes old): not at all once deleted, back to pending_offline once offline,
        // else to the current URL with the current secrets. The first of a line starts as it is
        // claimed, with the claim's own read of the webhook.
        let sent = d;
        if (before) {
          const now = await this.#targets.current(d.webhook_id);
          if (!now) {
            // deleted with its webhook: nothing to send, nothing to record
            this.#releaseSlot(d);
            return;
          }
          if (now.status !== 'online') {
            this.#givenBack.set(d.id, d);
            return;
          }
          const { status: _online, ...target } = now;
          sent = { ...d, ...target };
        }
        this.#outcomes.push(await attempt(sent, this.#allowPrivate));
      } catch (err) {
        this.#logger.error({ err, delivery: d.id }, 'webhook attempt crashed');
        this.#releaseSlot(d);
      }
    };
    const line: Promise<void> = (before ? before.then(run) : run()).finally(() => {
      this.#inFlightTotal--;
      if (this.#lines.get(key) === line) this.#lines.delete(key);
      this.wake();
    });
    this.#lines.set(key, line);
  }

  #releaseSlot(d: { id: string; webhook_id: string; workspace_id: string }): void {
    this.#held.delete(d.id);
    add(this.#inFlight, d.webhook_id, -1);
    add(this.#inFlightByWorkspace, d.workspace_id, -1);
  }

  async #flush(): Promise<void> {
    if (this.#givenBack.size) {
      const given = [...this.#givenBack.values()];
      this.#givenBack.clear();
      try {
        await releaseClaims(this.#db, new Map(given.map((d) => [d.id, d.attempt_count])));
      } catch (err) {
        // still `sending`: their lease runs out and they are claimed again once the webhook is online
        this.#logger.error(
          { err, count: given.length },
          'webhook deliveries of an offline webhook not given back',
        );
      } finally {
        for (const d of given) this.#releaseSlot(d);
      }
    }
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

interface Turn {
  did: boolean;
  more: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Adds to a counter of a map, dropping it at zero. */
function add(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n <= 0) counts.delete(key);
  else counts.set(key, n);
}
