import { setTimeout as sleep } from 'node:timers/promises';
import type pino from 'pino';
import type { Db } from '../db/connect.ts';
import { RepeatingTask } from '../shared/repeating-task.ts';
import { checkpointIfWritten } from './checkpoint.ts';
import { type PassScope, runMaintenancePass } from './pass.ts';

/** How a loop differs between the embedded database and a PostgreSQL server (see module.ts). */
export interface LoopOptions {
  /** Run a CHECKPOINT every fifth pass when anything was written (PGlite has no checkpointer). */
  checkpoints: boolean;
  /**
   * Asked before each pass: the tables it looks at and whether it rechecks a table before its
   * statement (pass.ts), or null to skip it (a PostgreSQL server whose own autovacuum is on).
   * Unset: every pass runs over every table.
   */
  scope?: () => Promise<PassScope | null>;
  /**
   * What the log lines name: `<subject> maintained` after a pass that ran something (`, with
   * failures` when a statement failed), `<subject> maintenance failed` when the pass itself did.
   */
  subject: string;
}

/** The first pass waits for the start-up to settle (the first requests, the sanctions lists). */
const FIRST_PASS_MAX_MS = 15_000;
/**
 * A checkpoint every this many passes: every 5 minutes at the default interval, PostgreSQL's
 * checkpoint_timeout, which bounds what a crash makes the next start replay.
 */
const PASSES_PER_CHECKPOINT = 5;

/**
 * Runs a maintenance pass every `intervalMs` (PostgreSQL's autovacuum_naptime is a minute), the first
 * one sooner, and, on the embedded database, on every fifth pass a checkpoint if anything was
 * written (checkpoint.ts).
 * - A table whose statement failed is logged at warn with the database's message; the pass has
 *   still maintained the others. A pass that fails as a whole is logged; the next runs as planned.
 * - stop() ends a pause between two statements and waits for the statement in progress, so the
 *   database closes after it.
 */
export class MaintenanceLoop {
  readonly #db: Db;
  readonly #logger: pino.Logger;
  readonly #task: RepeatingTask;
  /** Ends a pass's pause between two statements at once when the process stops. */
  readonly #stopping = new AbortController();
  readonly #options: LoopOptions;
  #passes = 0;

  constructor(db: Db, logger: pino.Logger, intervalMs: number, options: LoopOptions) {
    this.#db = db;
    this.#logger = logger;
    this.#options = options;
    this.#task = new RepeatingTask(() => this.#run(), intervalMs, Math.min(FIRST_PASS_MAX_MS, intervalMs));
  }

  start(): void {
    this.#task.start();
  }

  stop(): Promise<void> {
    const stopped = this.#task.stop(); // the pass sees it before its pause ends
    this.#stopping.abort();
    return stopped;
  }

  async #run(): Promise<void> {
    const stopped = () => this.#task.stopped;
    const { checkpoints, subject } = this.#options;
    try {
      const scope = this.#options.scope ? await this.#options.scope() : {};
      if (!scope) return;
      const done = await runMaintenancePass(
        this.#db,
        stopped,
        (ms) => sleep(ms, undefined, { signal: this.#stopping.signal, ref: false }).catch(() => undefined),
        scope,
      );
      this.#passes++;
      const checkpointMs =
        checkpoints && this.#passes % PASSES_PER_CHECKPOINT === 0 && !stopped()
          ? await checkpointIfWritten(this.#db)
          : null;
      if (done.length || checkpointMs !== null) {
        const failed = done.filter((t) => t.failed).length;
        this.#logger[failed ? 'warn' : 'info'](
          { tables: done, ...(failed ? { failed } : {}), ...(checkpointMs !== null ? { checkpointMs } : {}) },
          failed ? `${subject} maintained, with failures` : `${subject} maintained`,
        );
      }
    } catch (err) {
      if (!stopped()) this.#logger.warn({ err }, `${subject} maintenance failed`);
    }
  }
}
