import type { Module } from '../modules.ts';
import { purgeExpiredUploads } from './purge-expired-uploads.ts';
import { getStorage } from './storage.ts';

/** Files: expired uploads that no check references are purged every hour. */
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
      },
    });
  },
};
