import type { Module } from '../modules.ts';
import { ensureLegalFormLabels } from './legal-forms/get-legal-forms.ts';
import { pruneProfiles, pruneSearchRefs } from './repository.ts';

/** Company data: a daily job deletes expired search refs and stale cached profiles. */
export const companyDataModule: Module = {
  name: 'company-data',
  install(ctx) {
    ctx.jobs.define({
      name: 'company-data.prune',
      cron: '41 3 * * *',
      retryLimit: 0,
      handler: async () => {
        await pruneSearchRefs(ctx.db);
        await pruneProfiles(ctx.db, ctx.config.companyData.cacheSeconds);
      },
    });
  },
  // the ISO 20275 list labels every company's entity_legal_form (API answers and webhook payloads)
  background: (ctx) => ensureLegalFormLabels(ctx),
};
