/**
 * The screening module: the registry's lifecycle in the service (background load at start-up, reload
 * on a list change, versions recorded in the database) and the aml monitoring jobs.
 *
 * VERICASE_SCREENING_WATCH_SECONDS (default 60, 0 = off): how often each process checks its reference
 * directory for a new list version (content hash) and reloads without a restart.
 */
import type pino from 'pino';
import type { AppContext } from '../../app-context.ts';
import {
  MONITORING_QUEUE,
  RESCREEN_QUEUE,
  rescreenCheck,
  startMonitoringRun,
} from '../../checks/types/aml/monitoring.ts';
import type { Module } from '../../modules.ts';
import { latestListLoad, NO_LISTS_KEY, recordListLoad } from './list-loads.ts';
import { resolveReferenceDir } from './reference-dir.ts';
import { type LoadReport, ScreeningService } from './screening-service.ts';

export function watchIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.VERICASE_SCREENING_WATCH_SECONDS;
  const n = raw === undefined || raw === '' ? 60 : Number(raw);
  return Number.isFinite(n) && n > 0 ? Math.round(n * 1000) : 0;
}

async function sendWhenQueueReady(ctx: AppContext, data: { versionsKey: string }) {
  // a load that finishes while the job queue is still starting retries for a while
  for (let attempt = 0; ; attempt++) {
    try {
      await ctx.jobs.sendNow(MONITORING_QUEUE, data, { singletonKey: `monitoring:${data.versionsKey}` });
      return;
    } catch (err) {
      if (attempt >= 60) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * Records every load; when the version set differs from the last one recorded (by any process), starts
 * the re-screening of monitored aml checks. The first lists ever loaded count as a change too: checks
 * created before them resolved with result error ("No sanctions list is loaded"), and the monitored
 * ones are to be screened once the lists arrive (on a fresh install the run finds no check).
 */
export async function onListsLoaded(ctx: AppContext, report: LoadReport): Promise<void> {
  if (!report.versionsKey) {
    // A start without lists is recorded too (as the empty set, once): checks screened meanwhile
    // resolved with result error, and the lists that come back, even the very ones recorded before,
    // are then a change that re-screens the monitored ones.
    if ((await latestListLoad(ctx.db))?.versions_key !== NO_LISTS_KEY) {
      await recordListLoad(ctx.db, { ...report, versionsKey: NO_LISTS_KEY });
    }
    return;
  }
  const { previousKey } = await recordListLoad(ctx.db, report);
  if (previousKey !== report.versionsKey) {
    await sendWhenQueueReady(ctx, { versionsKey: report.versionsKey });
  }
}

export const screeningModule: Module = {
  name: 'screening',
  install(ctx, logger: pino.Logger) {
    const log = logger.child({ module: 'screening' });
    const service = new ScreeningService({
      resolveDir: () => resolveReferenceDir(ctx.config).dir,
      logger: log,
      onLoaded: (report) => onListsLoaded(ctx, report),
    });
    ctx.screening = service;
    ctx.jobs.define<{ versionsKey: string }>({
      name: MONITORING_QUEUE,
      handler: async (data) => {
        const n = await startMonitoringRun(ctx, data);
        log.info({ versionsKey: data.versionsKey, checks: n }, 'aml monitoring: re-screening enqueued');
      },
      retryLimit: 10,
      retryDelaySeconds: 5,
    });
    ctx.jobs.define<{ checkId: string; versionsKey?: string }>({
      name: RESCREEN_QUEUE,
      handler: (data) => rescreenCheck(ctx, data),
      retryLimit: 8,
      expireInSeconds: 300,
    });
  },
  // after the port opens: parsing the lists takes seconds of CPU; screening answers 503 (retry-after)
  // and /readyz is not_ready until they are in
  background(ctx, logger) {
    const service = ctx.screening;
    if (!service) return;
    const loaded = service.load().then(
      () => undefined,
      (err) => logger.child({ module: 'screening' }).error({ err }, 'loading the sanctions lists failed'),
    );
    service.watch(watchIntervalMs());
    return loaded;
  },
  stop: (ctx) => ctx.screening?.stop(),
};
