/**
 * What a graceful shutdown is doing. A shutdown that overruns its deadline exits 1, and the log then
 * says which steps were still running and how long the finished ones took: without it, a stuck
 * shutdown (a job that does not end, a connection that is not released) leaves nothing to go on.
 */
export class ShutdownTrace {
  readonly #started = Date.now();
  readonly #running = new Map<number, { name: string; at: number }>();
  readonly #done: { step: string; ms: number }[] = [];
  #next = 0;

  /** Runs one step, recorded while it runs and timed once it ends (or fails). */
  async step<T>(name: string, run: () => T | Promise<T>): Promise<T> {
    const id = this.#next++;
    const at = Date.now();
    this.#running.set(id, { name, at });
    try {
      return await run();
    } finally {
      this.#running.delete(id);
      this.#done.push({ step: name, ms: Date.now() - at });
    }
  }

  /** The steps still running (outermost first), how long each has run, and the finished ones. */
  report(): {
    elapsedMs: number;
    running: { step: string; ms: number }[];
    done: { step: string; ms: number }[];
  } {
    const now = Date.now();
    return {
      elapsedMs: now - this.#started,
      running: [...this.#running.values()].map((s) => ({ step: s.name, ms: now - s.at })),
      done: [...this.#done],
    };
  }
}

/** Runs a step on the trace when there is one (a shutdown), or plainly (tests, CLI commands). */
export function traced<T>(trace: ShutdownTrace | undefined, name: string, run: () => T | Promise<T>) {
  return trace ? trace.step(name, run) : run();
}
