/**
 * Runs `run` after `firstMs`, then `intervalMs` after each run ends, never two at once. `stop()`
 * cancels the next run and waits for the one in progress. The timer never keeps a process alive
 * that has nothing else to do. `run` handles its own errors: a rejection still schedules the next.
 */
export class RepeatingTask {
  readonly #run: () => Promise<void>;
  readonly #intervalMs: number;
  readonly #firstMs: number;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = false;

  constructor(run: () => Promise<void>, intervalMs: number, firstMs = intervalMs) {
    this.#run = run;
    this.#intervalMs = intervalMs;
    this.#firstMs = firstMs;
  }

  /** stop() was called: a run in progress checks it to end early. */
  get stopped(): boolean {
    return this.#stopped;
  }

  start(): void {
    this.#schedule(this.#firstMs);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#running = this.#run()
        .catch(() => undefined)
        .finally(() => {
          this.#running = undefined;
          this.#schedule(this.#intervalMs);
        });
    }, ms).unref();
  }
}
