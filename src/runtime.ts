import type pino from 'pino';
import type { AppContext } from './app-context.ts';
import type { Config } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/connect.ts';
import { type MigrationProgress, migrateToLatest } from './db/migrate.ts';
import { KeyResolver } from './http/auth.ts';
import { installModules } from './modules.ts';
import { createLogger } from './shared/logger.ts';

export interface Runtime {
  ctx: AppContext;
  handle: DatabaseHandle;
  logger: pino.Logger;
  close(): Promise<void>;
}

/** Opens the database, migrates it and assembles the context shared by the API and the workers. */
export async function openRuntime(
  config: Config,
  logger: pino.Logger = createLogger({ level: config.logLevel, format: config.logFormat }),
  opts: { migrationProgress?: MigrationProgress } = {},
): Promise<Runtime> {
  const handle = await openDatabase(config);
  try {
    const applied = await migrateToLatest(
      handle.db as never,
      opts.migrationProgress ?? {
        pending: (names) => logger.info({ migrations: names }, 'applying database migrations'),
      },
    );
    if (applied.length) logger.info({ migrations: applied }, 'database migrated');
    const ctx: AppContext = {
      config,
      db: handle.db,
      dbKind: handle.kind,
      keys: new KeyResolver(handle.db, config.authCacheTtlMs),
      jobs: undefined as never, // set by installModules
      hooks: {},
    };
    await installModules(ctx, handle, logger);
    return {
      ctx,
      handle,
      logger,
      close: async () => {
        await ctx.stop?.();
        await handle.close();
      },
    };
  } catch (err) {
    await handle.close();
    throw err;
  }
}
