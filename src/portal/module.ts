import { purgeWithdrawnLinks } from '../client-portals/purge-withdrawn-links.ts';
import type { Module } from '../modules.ts';
import { registerPortalRoutes } from './routes.ts';

/**
 * The client portal's JSON API (/portal/api), authorised by a link's token instead of the API key,
 * and the daily purge of the withdrawn links' hashes past their link's expiry.
 */
export const portalApiModule: Module = {
  name: 'portal-api',
  install(ctx, logger) {
    ctx.jobs.define({
      name: 'client-portals.purge-withdrawn-links',
      cron: '29 3 * * *',
      retryLimit: 0,
      handler: async () => {
        const purged = await purgeWithdrawnLinks(ctx.db);
        if (purged) logger.info({ purged }, 'expired withdrawn portal links purged');
      },
    });
  },
  routes: registerPortalRoutes,
};
