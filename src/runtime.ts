import type pino from 'pino';
import type { AppContext } from './app-context.ts';
import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/connect.ts';
import { type MigrationProgress, migrateToLatest } from './db/migrate.ts';
import { KeyResolver } from './http/auth.ts';
import { type BackgroundStarted, installModules, startBackground } from './modules.ts';
import { type ShutdownTrace, traced } from './ops/shutdown-trace.ts';
import { createLogger } from './shared/logger.ts';

export interface Runtime {
  ctx: AppContext;
  handle: DatabaseHandle;
  logger: pino.Logger;
  /** Starts the job queue (once; see `deferQueueStart`): before anything is enqueued. */
  startQueue(): Promise<void>;
  /** Starts the workers and the modules' background work (once; see `deferBackground`). */
  startBackground(): Promise<BackgroundStarted>;
  /** Stops the workers and the modules, then closes the database; each step on the trace, if given. */
  close(trace?: ShutdownTrace): Promise<void>;
}

export interface OpenRuntimeOptions {
  migrationProgress?: MigrationProgress;
  /**
   * Leave the workers and the background loads (sanctions lists) to a later `startBackground()`:
   * `vericase serve` opens its port first. Otherwise they start before openRuntime returns.
   */
  deferBackground?: boolean;
  /**
   * Leave the job queue's start (pg-boss's own start, the missing queues) to a later `startQueue()`:
   * `vericase serve` runs it while it builds the app, so that the queue's round trips to PostgreSQL
   * overlap the routes' registration. Implies `deferBackground` (the workers need the queue).
   */
  deferQueueStart?: boolean;
}

/** Opens the database, migrates it and assembles the context shared by the API and the workers. */
export async function openRuntime(
  config: Config,
  logger: pino.Logger = createLogger({ level: config.logLevel, format: config.logFormat }),
  opts: OpenRuntimeOptions = {},
): Promise<Runtime> {
  const handle = await openDatabase(config, (err) =>
    logger.warn({ err }, 'a database connection was closed by the server: it is replaced when needed'),
  );
  try {
    const applied = await migrateToLatest(
      handle.db as never,
      opts.migrationProgress ?? {
        pending: (names) => logger.info({ migrations: names }, 'applying database migrations'),
      },
    );
    if (applied.length) logger.info({ migrations: applied }, 'database migrated');
    // migrated: from now on a statement PostgreSQL does not answer in time is a 503, not a hang
    handle.queryDeadline.ms = config.dbQueryTimeoutMs;
    const ctx: AppContext = {
      config,
      db: handle.db,
      dbKind: handle.kind,
      keys: new KeyResolver(handle.db, config.authCacheTtlMs),
      jobs: undefined as never, // set by installModules
      hooks: {},
    };
    await installModules(ctx, handle, logger);
    let queueStarted: Promise<void> | null = null;
    const startQueue = () => {
      queueStarted ??= ctx.jobs.start();
      return queueStarted;
    };
    let background: Promise<BackgroundStarted> | null = null;
    const runBackground = () => {
      background ??= startQueue().then(() => startBackground(ctx, logger));
      return background;
    };
    if (!opts.deferQueueStart) {
      await startQueue();
      if (!opts.deferBackground) await runBackground();
    }
    return {
      ctx,
      handle,
      logger,
      startQueue,
      startBackground: runBackground,
      close: async (trace) => {
        await ctx.stop?.(trace);
        await traced(trace, 'database', () => handle.close());
      },
    };
  } catch (err) {
    await handle.close();
    throw err;
  }
}
