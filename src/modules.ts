import type pino from 'pino';
import type { App, AppContext } from './app-context.ts';
import type { DatabaseHandle } from './db/connect.ts';
import { JobQueue } from './jobs/queue.ts';
import { MODULES } from './module-list.ts';
import { traced } from './ops/shutdown-trace.ts';

/** A feature module: declares its jobs and fills its hooks in the context at start-up. */
export interface Module {
  name: string;
  install(ctx: AppContext, logger: pino.Logger): void | Promise<void>;
  /** Routes outside /v1 (no API key: the portal's page and API), mounted by buildApp at the root. */
  routes?(app: App, ctx: AppContext): void | Promise<void>;
  /**
   * Work that starts once the process serves: long loads (the sanctions lists) and timers that must
   * not delay the port opening. Runs after the workers started; must not throw (it logs). A load
   * returns its promise, settled once it is done (or failed, logged): see `BackgroundStarted.loaded`.
   */
  background?(ctx: AppContext, logger: pino.Logger): void | Promise<void>;
  /** Releases what install started (a browser, connections, timers); run at shutdown after the jobs stop. */
  stop?(ctx: AppContext): void | Promise<void>;
}

/**
 * Installs the feature modules into the context and sets up the job queue, which `ctx.jobs.start()`
 * then starts (src/runtime.ts does, before anything is served: a request may enqueue). The workers
 * and the modules' background work start with `startBackground`. Stopping the context stops the
 * jobs, then the modules in reverse order of installation.
 */
export async function installModules(
  ctx: AppContext,
  handle: DatabaseHandle,
  logger: pino.Logger,
): Promise<void> {
  const jobs = new JobQueue(handle, logger, { pollMs: ctx.config.jobPollMs });
  ctx.jobs = jobs;
  for (const m of MODULES) await m.install(ctx, logger);
  const previousStop = ctx.stop;
  ctx.stop = async (trace) => {
    await traced(trace, 'jobs', () => jobs.stop(trace));
    for (const m of [...MODULES].reverse()) {
      const stop = m.stop;
      if (stop) await traced(trace, `module ${m.name}`, () => stop(ctx));
    }
    await previousStop?.(trace);
  };
}

/**
 * Starts the workers (when this process runs them) and every module's background work. `vericase
 * serve` calls it right after the port opens, so a start-up answers requests before the sanctions
 * lists are parsed (screening answers 503 with retry-after meanwhile, /readyz says not_ready).
 */
export async function startBackground(ctx: AppContext, logger: pino.Logger): Promise<BackgroundStarted> {
  // the loads begin before the workers take their first jobs: a job that waited in the queue while
  // no worker ran (a worker added, restarted) found no load begun, did not wait for the sanctions
  // lists, and sent its aml check to review in error (scale-out walk)
  const loads = MODULES.map((m) => m.background?.(ctx, logger));
  if (ctx.config.runWorkers) await ctx.jobs.startWorkers();
  return { loaded: Promise.allSettled(loads).then(() => undefined) };
}

/** The background work has started; `loaded` settles once its start-up loads are done. */
export interface BackgroundStarted {
  loaded: Promise<void>;
}
