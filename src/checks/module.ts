import type { Module } from '../modules.ts';
import { refreshCaseAfterCheckChange } from './engine/case-effects.ts';
import { announceEntityChecksDeleted } from './engine/delete-check.ts';
import { expireDueChecks } from './engine/expire-checks.ts';
import { processCheckJob } from './engine/process-job.ts';
import { EXPIRE_QUEUE, PROCESS_QUEUE, SLOW_PROCESS_QUEUE } from './engine/queues.ts';
import { envelopesByEntity, presentCheckEnvelope } from './present.ts';
import { checkEnvelopesByEntity } from './repository.ts';

/** Retries of a provider job (pg-boss's, with exponential backoff from 2 s). */
const PROCESS_RETRIES = 8;
const SLOW_PROCESS_RETRIES = 3;

/** The check engine: provider jobs, expiration, and check envelopes inside cases and entities. */
export const checksModule: Module = {
  name: 'checks',
  install(ctx) {
    ctx.jobs.define<{ checkId: string; attempt: number }>({
      name: PROCESS_QUEUE,
      handler: (data, meta) => processCheckJob(ctx, data, meta.retryCount >= PROCESS_RETRIES),
      retryLimit: PROCESS_RETRIES,
      // a job whose process died is retried after this (provider calls here are short)
      expireInSeconds: 60,
    });
    ctx.jobs.define<{ checkId: string; attempt: number }>({
      name: SLOW_PROCESS_QUEUE,
      handler: (data, meta) => processCheckJob(ctx, data, meta.retryCount >= SLOW_PROCESS_RETRIES),
      retryLimit: SLOW_PROCESS_RETRIES,
      // OCR of up to 10 scans runs one file at a time, each bounded at 60 s
      expireInSeconds: 15 * 60,
      batchSize: 2,
    });
    ctx.jobs.define({
      name: EXPIRE_QUEUE,
      handler: async () => {
        await expireDueChecks(ctx);
      },
      cron: '* * * * *',
      retryLimit: 0,
    });
    ctx.hooks.afterCaseCountedChecksChanged = (trx, workspaceId, caseId) =>
      refreshCaseAfterCheckChange(ctx, trx, workspaceId, caseId);
    ctx.hooks.beforeEntityDeleted = announceEntityChecksDeleted;
    ctx.hooks.loadCheckEnvelopes = async (db, caseId, opts) =>
      envelopesByEntity(await checkEnvelopesByEntity(db, caseId, opts.excludeInternalChecks));
    ctx.hooks.loadEntityChecks = async (db, entityId) => {
      const rows = await db
        .selectFrom('checks')
        .selectAll()
        .where((eb) => eb.or([eb('company_id', '=', entityId), eb('individual_id', '=', entityId)]))
        // checks made in one transaction share created_at: the id (ascending in a template's order,
        // src/shared/ascending-ids.ts) breaks the tie, as every other read of checks does
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(presentCheckEnvelope);
    };
  },
};
