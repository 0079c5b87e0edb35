import { setTimeout as sleep } from 'node:timers/promises';
import type pino from 'pino';
import type { Db } from '../db/connect.ts';
import { checkpointIfWritten } from './checkpoint.ts';
import { runMaintenancePass } from './pass.ts';

/** The first pass waits for the start-up to settle (the first requests, the sanctions lists). */
const FIRST_PASS_MAX_MS = 15_000;
/**
 * A checkpoint every this many passes: every 5 minutes at the default interval, PostgreSQL's
 * checkpoint_timeout, which bounds what a crash makes the next start replay.
 */
const PASSES_PER_CHECKPOINT = 5;

/**
 * Runs a maintenance pass every `intervalMs` (PostgreSQL's autovacuum_naptime is a minute), the first
 * one sooner, and on every fifth pass a checkpoint if anything was written (checkpoint.ts). A failed
 * pass is logged and the next one runs as planned; stop() ends a pause between two statements and
 * waits for the statement in progress, so the database closes after it.
 */
export class MaintenanceLoop {
  readonly #db: Db;
  readonly #logger: pino.Logger;
  readonly #intervalMs: number;
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<void> | undefined;
  #stopped = false;
  /** Ends a pass's pause between two statements at once when the process stops. */
  readonly #stopping = new AbortController();
  #passes = 0;

  constructor(db: Db, logger: pino.Logger, intervalMs: number) {
    this.#db = db;
    this.#logger = logger;
    this.#intervalMs = intervalMs;
  }

  start(): void {
    this.#schedule(Math.min(FIRST_PASS_MAX_MS, this.#intervalMs));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopping.abort();
    clearTimeout(this.#timer);
    await this.#pass;
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    // unref: a pending pass never keeps a process alive that has nothing else to do
    this.#timer = setTimeout(() => {
      this.#pass = this.#run().finally(() => {
        this.#pass = undefined;
        this.#schedule(this.#intervalMs);
      });
    }, ms).unref();
  }

  async #run(): Promise<void> {
    try {
      const done = await runMaintenancePass(
        this.#db,
        () => this.#stopped,
        (ms) => sleep(ms, undefined, { signal: this.#stopping.signal, ref: false }).catch(() => undefined),
      );
      this.#passes++;
      const checkpointMs =
        this.#passes % PASSES_PER_CHECKPOINT === 0 && !this.#stopped
          ? await checkpointIfWritten(this.#db)
          : null;
      if (done.length || checkpointMs !== null) {
        this.#logger.info(
          { tables: done, ...(checkpointMs !== null ? { checkpointMs } : {}) },
          'embedded database maintained',
        );
      }
    } catch (err) {
      if (!this.#stopped) this.#logger.warn({ err }, 'embedded database maintenance failed');
    }
  }
}
