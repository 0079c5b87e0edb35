import type pino from 'pino';
import type { AppContext } from '../app-context.ts';
import type { Module } from '../modules.ts';
import { purgeExpiredUploads } from './purge-expired-uploads.ts';
import { getStorage, LocalFileStorage } from './storage.ts';
import { removeOwnUnfinished, staleAfterMs, sweepUnfinished } from './unfinished-uploads.ts';

/** The abandoned `.part` files of the local disk (src/files/unfinished-uploads.ts), removed and logged. */
async function sweep(ctx: AppContext, logger: pino.Logger): Promise<void> {
  const storage = getStorage(ctx);
  if (!(storage instanceof LocalFileStorage)) return;
  const olderThanMs = staleAfterMs(ctx);
  const removed = await sweepUnfinished(storage, olderThanMs);
  if (removed) logger.info({ removed, olderThanMs }, 'unfinished uploads removed');
}

/**
 * Files: expired uploads that no check references are purged every hour, and so are the `.part`
 * files of writes no process will finish (also at start, and this process's own at shutdown).
 */
export const filesModule: Module = {
  name: 'files',
  install(ctx, logger) {
    ctx.jobs.define({
      name: 'files.purge',
      cron: '17 * * * *',
      retryLimit: 0,
      handler: async () => {
        const purged = await purgeExpiredUploads(ctx.db, getStorage(ctx));
        if (purged) logger.info({ purged }, 'expired uploads purged');
        await sweep(ctx, logger);
      },
    });
  },
  background(ctx, logger) {
    // a process killed with writes in flight left their `.part` files (it ran no clean-up)
    return sweep(ctx, logger).catch((err) => logger.warn({ err }, 'unfinished uploads not swept'));
  },
  async stop(ctx) {
    if (ctx.storage) await removeOwnUnfinished(ctx.storage);
  },
};
