import { randomUUID } from 'node:crypto';
import { fromKysely, fromPglite, PgBoss } from 'pg-boss';
import type pino from 'pino';
import type { DatabaseHandle, Db } from '../db/connect.ts';
import { FailureLog } from '../ops/failure-log.ts';
import { jobDuration, jobWait } from '../ops/metrics.ts';
import { type ShutdownTrace, traced } from '../ops/shutdown-trace.ts';
import { contextFrom, currentTraceCarrier, inSpan, SpanKind } from '../ops/tracing.ts';
import { DueJobSweep } from './due-sweep.ts';
import { announceWork, WorkListener } from './work-channel.ts';

/**
 * The job queue (pg-boss, in the application's own database). Modules declare their queues and
 * handlers; jobs are enqueued with the transaction that causes them, so a rolled-back change leaves
 * no job behind and a committed one always has its job.
 */
export interface JobDefinition<T = Record<string, unknown>> {
  name: string;
  handler: (data: T, meta: { id: string; retryCount: number }) => Promise<void>;
  /** Retries after a failure (pg-boss retryLimit), with exponential backoff. */
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryDelayMaxSeconds?: number;
  /** A job running longer is considered dead (its process died) and retried. */
  expireInSeconds?: number;
  batchSize?: number;
  /** Cron schedule (UTC) for maintenance jobs. */
  cron?: string;
}

export interface SendOptions {
  startAfter?: Date;
  singletonKey?: string;
  id?: string;
}

interface JobWithMetadata {
  id: string;
  data: unknown;
  retryCount?: number;
  createdOn?: Date;
  startAfter?: Date;
  startedOn?: Date;
}

/** A delayed job's worker is woken this long after the job's start time. */
const DUE_MARGIN_MS = 15;
/** Delayed jobs of a queue falling due within the same slot of this length share one wake. */
const WAKE_SLOT_MS = 50;

/**
 * Each worker's own poll, the last resort behind the due-job sweep (src/jobs/due-sweep.ts), which
 * looks every `jobPollMs` for all the queues at once.
 */
const WORKER_BACKSTOP_MS = 300_000;

/** The work channel's topic of a queue's delayed jobs falling due. */
const jobTopic = (queue: string) => `job:${queue}`;

/** Where a job's data carries the trace it was enqueued in (removed before its handler sees it). */
const TRACE_KEY = '_trace';

function withTrace(data: object): object {
  const carrier = currentTraceCarrier();
  return carrier ? { ...data, [TRACE_KEY]: carrier } : data;
}

/** From when the job was due (its creation, or its start time when later) to its start in a worker. */
function observeWait(queue: string, job: JobWithMetadata): void {
  const due = Math.max(job.createdOn?.getTime() ?? 0, job.startAfter?.getTime() ?? 0);
  if (!due) return;
  const started = job.startedOn?.getTime() ?? Date.now();
  jobWait.observe({ queue }, Math.max(0, started - due) / 1000);
}

export class JobQueue {
  readonly #boss: PgBoss;
  readonly #defs = new Map<string, JobDefinition<never>>();
  readonly #logger: pino.Logger;
  /** How often a worker looks for delayed jobs and retries it was not woken for (config `jobPollMs`). */
  readonly #pollMs: number;
  #started = false;
  #working = false;
  /** The id of this process's worker for each queue (to wake it when a delayed job falls due). */
  readonly #workerIds = new Map<string, string>();
  readonly #handle: DatabaseHandle;
  /** Wakes already set, by queue and slot (see #wakeWhenDue). */
  readonly #wakes = new Set<string>();
  /** Handlers of other processes' announcements (src/jobs/work-channel.ts), by topic. */
  readonly #workHandlers = new Map<string, () => void>();
  #listener: WorkListener | undefined;
  #sweep: DueJobSweep | undefined;

  constructor(handle: DatabaseHandle, logger: pino.Logger, opts: { pollMs?: number } = {}) {
    this.#logger = logger;
    this.#handle = handle;
    this.#pollMs = Math.max(500, opts.pollMs ?? 2000);
    this.#boss =
      handle.kind === 'pglite' && handle.pglite
        ? new PgBoss({ db: fromPglite(handle.pglite as never), backend: 'pglite', useListenNotify: true })
        : new PgBoss({ connectionString: handle.connectionString as string, max: 5, useListenNotify: true });
    // pg-boss's own loops report each failed attempt; it never says when they work again
    const failures = new FailureLog(logger, 'job queue error', 'error');
    this.#boss.on('error', (err: Error) => failures.failed(err));
  }

  define<T>(def: JobDefinition<T>): void {
    if (this.#started) throw new Error(`queue ${def.name} defined after start`);
    this.#defs.set(def.name, def as JobDefinition<never>);
  }

  /** The queues modules declared (the metrics list each, at 0 when empty). */
  queueNames(): string[] {
    return [...this.#defs.keys()];
  }

  /**
   * Calls `handler` when another process announces `topic` on the work channel (PostgreSQL, in a
   * process that runs the workers; src/jobs/work-channel.ts). Before `startWorkers`.
   */
  onWork(topic: string, handler: () => void): void {
    this.#workHandlers.set(topic, handler);
  }

  /** This process runs the workers, and they are started (the readiness check). */
  get workersRunning(): boolean {
    return this.#working;
  }

  /**
   * Creates the queues that do not exist yet and warms pg-boss's queue cache before anything is
   * enqueued in a transaction. pg-boss's start reads every queue into that cache, so a queue that
   * already exists (every start but the first) costs nothing here: one query finds the missing ones
   * instead of a create and a warm-up round trip per queue (about 0.13 s of a start on PostgreSQL,
   * docs/performance.md). A queue whose stored retry or expiry options differ from its definition
   * (created by an earlier release) is updated: pg-boss keeps a queue's options as created.
   */
  async start(): Promise<void> {
    await this.#boss.start();
    const existing = new Map(
      (await this.#boss.getQueues([...this.#defs.keys()])).map((q) => [
        q.name,
        q as unknown as QueueSettings,
      ]),
    );
    for (const def of this.#defs.values()) {
      const wanted = queueSettings(def);
      const found = existing.get(def.name);
      if (!found) {
        await this.#boss.createQueue(def.name, wanted as never);
      } else if (settingsDiffer(found, wanted)) {
        // a queue keeps the options it was created with: an upgrade that changes a queue's retries
        // or expiry reaches existing installations here (one comparison per queue, no query)
        const { notify: _notify, ...options } = wanted;
        await this.#boss.updateQueue(def.name, options as never);
      } else {
        continue;
      }
      // Creating or updating a queue drops it from pg-boss's cache, and the first send to a queue
      // not in the cache looks it up on the pool: inside a PGlite transaction that deadlocks. Any
      // call that goes through the cache warms it.
      await this.#boss.complete(def.name, randomUUID()).catch(() => undefined);
    }
    this.#started = true;
  }

  /**
   * Starts a worker per queue and the schedules. After `start`; `vericase serve` calls it once the
   * HTTP port is open (a job enqueued before waits in its queue).
   */
  async startWorkers(): Promise<void> {
    if (!this.#started || this.#working) return;
    for (const def of this.#defs.values()) {
      const workerId = await this.#boss.work<Record<string, unknown>>(
        def.name,
        {
          batchSize: def.batchSize ?? 50,
          // without a listening connection (lost), the workers poll every half second
          pollingIntervalSeconds: 0.5,
          // With it, a job sent now wakes them by NOTIFY. Delayed jobs sent by this process wake
          // its worker when due (#wakeWhenDue); the others (retries, other processes' delayed jobs)
          // are found by the due-job sweep, one statement for all the queues every jobPollMs. Each
          // worker's own poll is the last resort: at 2 s it was 13 fetches every 2 s at idle.
          notifyPollingIntervalSeconds: Math.max(this.#pollMs, WORKER_BACKSTOP_MS) / 1000,
          burstWhenBatchFull: true,
          perJobResults: true,
          includeMetadata: true,
        } as never,
        // each job settles on its own: one failure must not retry its batch neighbours
        (async (jobs: JobWithMetadata[]) =>
          Promise.all(
            jobs.map(async (job) => {
              const started = performance.now();
              observeWait(def.name, job);
              try {
                const { [TRACE_KEY]: carrier, ...data } = (job.data ?? {}) as Record<string, unknown>;
                await inSpan(
                  `job ${def.name}`,
                  {
                    kind: SpanKind.CONSUMER,
                    parent: carrier ? contextFrom(carrier) : undefined,
                    attributes: { 'vericase.job_id': job.id, 'vericase.retry_count': job.retryCount ?? 0 },
                  },
                  () => def.handler(data as never, { id: job.id, retryCount: job.retryCount ?? 0 }),
                );
                jobDuration.observe(
                  { queue: def.name, outcome: 'completed' },
                  (performance.now() - started) / 1000,
                );
                return { id: job.id, status: 'completed' };
              } catch (err) {
                jobDuration.observe(
                  { queue: def.name, outcome: 'failed' },
                  (performance.now() - started) / 1000,
                );
                this.#logger.warn({ err, queue: def.name, job: job.id }, 'job failed');
                return {
                  id: job.id,
                  status: 'failed',
                  output: { message: String((err as Error)?.message ?? err) },
                };
              }
            }),
          )) as never,
      );
      if (typeof workerId === 'string') this.#workerIds.set(def.name, workerId);
      if (def.cron) await this.#boss.schedule(def.name, def.cron, {}, { tz: 'UTC' } as never);
    }
    this.#working = true;
    const boss = this.#boss;
    this.#sweep = new DueJobSweep(
      [...this.#workerIds.keys()],
      {
        query: (text, values) => boss.getDb().executeSql(text, values) as never,
        wake: (queue) => {
          const id = this.#workerIds.get(queue);
          if (id && this.#working) boss.notifyWorker(id);
        },
      },
      this.#logger,
      this.#pollMs,
    );
    this.#sweep.start();
    // other processes' delayed jobs falling due, and what the modules listen for (webhooks)
    if (this.#handle.kind === 'postgres' && this.#handle.connectionString) {
      const listener = new WorkListener(this.#handle.connectionString, this.#logger);
      for (const [name, id] of this.#workerIds) {
        listener.on(jobTopic(name), () => {
          if (this.#working) this.#boss.notifyWorker(id);
        });
      }
      for (const [topic, handler] of this.#workHandlers) listener.on(topic, handler);
      listener.start();
      this.#listener = listener;
    }
  }

  /** Enqueues within the caller's transaction. */
  async send(trx: Db, name: string, data: object, opts: SendOptions = {}): Promise<void> {
    // a start time already reached is no delay: without it the job is announced (NOTIFY) at once
    const { startAfter, ...rest } = opts;
    const delayed = startAfter && startAfter.getTime() > Date.now() ? { startAfter } : {};
    await this.#boss.send(name, withTrace(data), {
      ...rest,
      ...delayed,
      db: fromKysely(trx as never),
    } as never);
    this.#wakeWhenDue(name, delayed.startAfter);
  }

  /** Enqueues outside any transaction. */
  async sendNow(name: string, data: object, opts: SendOptions = {}): Promise<void> {
    await this.#boss.send(name, withTrace(data), opts as never);
    this.#wakeWhenDue(name, opts.startAfter);
  }

  /**
   * A delayed job gets no NOTIFY. When it falls due (a little after, for the database's clock), the
   * process that sent it wakes its own worker of the queue, or, running none (an API-only process on
   * PostgreSQL), announces it to the worker processes; either is sooner than their backstop poll.
   * Jobs falling due within one WAKE_SLOT_MS share one wake. A wake that finds nothing (the
   * transaction rolled back, another process took the job) costs one fetch.
   */
  #wakeWhenDue(name: string, startAfter: Date | undefined): void {
    if (!startAfter || startAfter.getTime() <= Date.now()) return;
    const workerId = this.#workerIds.get(name);
    if (!workerId && this.#handle.kind !== 'postgres') return;
    const slotEnd = Math.ceil((startAfter.getTime() + DUE_MARGIN_MS) / WAKE_SLOT_MS) * WAKE_SLOT_MS;
    const key = `${name} ${slotEnd}`;
    if (this.#wakes.has(key)) return;
    this.#wakes.add(key);
    const timer = setTimeout(
      () => {
        this.#wakes.delete(key);
        if (workerId) {
          if (this.#working) this.#boss.notifyWorker(workerId);
        } else if (this.#started) {
          announceWork(this.#handle.db, jobTopic(name), this.#logger);
        }
      },
      Math.max(0, slotEnd - Date.now()),
    );
    timer.unref();
  }

  async stop(trace?: ShutdownTrace): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    this.#working = false;
    this.#workerIds.clear();
    const sweep = this.#sweep;
    this.#sweep = undefined;
    if (sweep) await traced(trace, 'jobs: due-job sweep', () => sweep.stop());
    const listener = this.#listener;
    this.#listener = undefined;
    if (listener) await traced(trace, 'jobs: work channel', () => listener.stop());
    await traced(trace, 'jobs: pg-boss', () => this.#boss.stop({ graceful: true, timeout: 10_000 } as never));
  }
}

/** The options each queue is created with (and brought back to when a release changes them). */
interface QueueSettings {
  retryLimit: number;
  retryDelay: number;
  retryBackoff: boolean;
  retryDelayMax: number;
  expireInSeconds: number;
  notify: boolean;
}

function queueSettings(def: JobDefinition<never>): QueueSettings {
  return {
    retryLimit: def.retryLimit ?? 5,
    retryDelay: def.retryDelaySeconds ?? 2,
    retryBackoff: true,
    retryDelayMax: def.retryDelayMaxSeconds ?? 600,
    expireInSeconds: def.expireInSeconds ?? 120,
    // a NOTIFY on send wakes the workers at once instead of at their next poll
    notify: true,
  };
}

/** Whether a stored queue's retry and expiry options differ from what the code declares now. */
function settingsDiffer(found: QueueSettings, wanted: QueueSettings): boolean {
  return (
    found.retryLimit !== wanted.retryLimit ||
    found.retryDelay !== wanted.retryDelay ||
    found.retryBackoff !== wanted.retryBackoff ||
    found.retryDelayMax !== wanted.retryDelayMax ||
    found.expireInSeconds !== wanted.expireInSeconds
  );
}
