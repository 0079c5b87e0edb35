import type pino from 'pino';
import { FailureLog } from '../ops/failure-log.ts';
import { RepeatingTask } from '../shared/repeating-task.ts';

/** What the sweep needs of pg-boss: its own connection (`getDb`) and a way to wake one worker. */
export interface SweptQueue {
  query(text: string, values: unknown[]): Promise<{ rows: { name: string }[] }>;
  wake(queue: string): void;
}

/**
 * The queues among `$1` holding a job a worker would fetch now, by pg-boss's own fetch condition
 * (its `fetchNextJob`: waiting, not blocked by a dependency, its start time reached), one
 * index probe per queue on its partial index of waiting jobs, so at rest it reads nothing.
 */
const DUE_QUEUES_SQL = `select q.name from unnest($1::text[]) as q(name)
where exists (
  select 1 from pgboss.job j
  where j.name = q.name and j.state < 'active' and not j.blocked and j.start_after <= pgboss.job_now()
)`;

/**
 * The backstop that finds the jobs nobody announced: retries pg-boss scheduled after a failure,
 * delayed jobs of a process that stopped before waking anyone, a lost NOTIFY. Every `intervalMs` one
 * statement asks which of the queues have a job due, and only their workers fetch. Before, each
 * queue's worker polled on its own: 13 fetches every 2 s, 70% of the statements an idle process ran
 * (docs/performance.md, session 25).
 */
export class DueJobSweep {
  readonly #queues: string[];
  readonly #target: SweptQueue;
  readonly #failures: FailureLog;
  readonly #task: RepeatingTask;

  constructor(queues: string[], target: SweptQueue, logger: pino.Logger, intervalMs: number) {
    this.#queues = queues;
    this.#target = target;
    this.#failures = new FailureLog(logger, 'job queue: the sweep for due jobs failed', 'warn');
    this.#task = new RepeatingTask(() => this.#sweep(), intervalMs);
  }

  start(): void {
    this.#task.start();
  }

  /** Stops the timer and waits for a sweep in progress. */
  stop(): Promise<void> {
    return this.#task.stop();
  }

  async #sweep(): Promise<void> {
    try {
      const { rows } = await this.#target.query(DUE_QUEUES_SQL, [this.#queues]);
      if (this.#task.stopped) return;
      for (const { name } of rows) this.#target.wake(name);
      this.#failures.succeeded();
    } catch (err) {
      // the workers' own slow poll is still there; the next sweep tries again
      if (!this.#task.stopped) this.#failures.failed(err);
    }
  }
}
