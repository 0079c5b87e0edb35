import type pino from 'pino';

/** Past this long without a failure, the next one starts a new episode, logged in full. */
const QUIET_MS = 60_000;

/**
 * The failures of a background loop (the webhook delivery loop, the due-job sweep, the work
 * listener, the job queue), logged once per episode instead of at every attempt: the first with its
 * error, the repeats only counted, and the recovery (when the loop says it succeeded) with how many
 * there were and for how long. A database outage made these loops log a stack trace each every one
 * or two seconds: 85 lines in 30 s of outage.
 */
export class FailureLog {
  readonly #logger: pino.Logger;
  readonly #message: string;
  readonly #level: 'warn' | 'error';
  readonly #now: () => number;
  #since: number | undefined;
  #last = 0;
  #repeats = 0;

  constructor(logger: pino.Logger, message: string, level: 'warn' | 'error', now: () => number = Date.now) {
    this.#logger = logger;
    this.#message = message;
    this.#level = level;
    this.#now = now;
  }

  failed(err: unknown): void {
    const now = this.#now();
    if (this.#since !== undefined && now - this.#last < QUIET_MS) {
      this.#repeats++;
      this.#last = now;
      return;
    }
    // a first failure, or one long after the last (a source that never reports success)
    const previous = this.#since !== undefined && this.#repeats > 0 ? { previousRepeats: this.#repeats } : {};
    this.#since = now;
    this.#last = now;
    this.#repeats = 0;
    this.#logger[this.#level](
      { err, ...previous },
      `${this.#message} (repeats are counted, not logged, until it recovers)`,
    );
  }

  succeeded(): void {
    if (this.#since === undefined) return;
    this.#logger.info(
      { failingForMs: this.#now() - this.#since, repeats: this.#repeats },
      `${this.#message}: recovered`,
    );
    this.#since = undefined;
    this.#repeats = 0;
  }
}
