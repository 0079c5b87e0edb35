import type { AppContext } from '../app-context.ts';
import { emitDueReviews } from '../events/emit-review-due.ts';
import type { Module } from '../modules.ts';
import { traced } from '../ops/shutdown-trace.ts';
import { WebhookEngine } from './engine.ts';
import { announceWebhookWork, WEBHOOK_TOPIC } from './outbox-notify.ts';
import { pruneWebhookLogs } from './prune.ts';

/**
 * Keyed by the runtime's job queue: a context copied with other settings (`{ ...ctx, config }`, as
 * tests and apps built on one runtime do) still finds its runtime's engine.
 */
const engines = new WeakMap<object, WebhookEngine>();

/** The delivery engine of this process, when it runs workers. */
export function webhookEngineOf(ctx: AppContext): WebhookEngine | undefined {
  return engines.get(ctx.jobs);
}

/**
 * Webhooks: the delivery loop (outbox → deliveries → signed POSTs, retries) in every process that
 * runs workers, plus two scheduled jobs: `Case.ReviewDue` emission and log retention.
 */
export const webhooksModule: Module = {
  name: 'webhooks',
  install(ctx, logger) {
    ctx.jobs.define({
      name: 'events.review-due',
      cron: '*/5 * * * *',
      retryLimit: 0,
      handler: async () => {
        const n = await emitDueReviews(ctx.db);
        if (n) logger.info({ count: n }, 'Case.ReviewDue emitted');
      },
    });
    ctx.jobs.define({
      name: 'webhooks.prune-logs',
      cron: '17 3 * * *',
      retryLimit: 0,
      handler: async () => {
        await pruneWebhookLogs(ctx.db);
      },
    });
    const previousStop = ctx.stop;
    if (!ctx.config.runWorkers) {
      // no delivery loop here: the worker processes hear of this process's events by NOTIFY
      if (ctx.dbKind !== 'postgres') return;
      const unsubscribe = announceWebhookWork(ctx.db, logger.child({ module: 'webhooks' }));
      ctx.stop = async (trace) => {
        unsubscribe();
        await previousStop?.(trace);
      };
      return;
    }
    const engine = new WebhookEngine(
      ctx.db,
      logger.child({ module: 'webhooks' }),
      () => ctx.config.webhookAllowPrivate,
      { sharedDatabase: ctx.dbKind === 'postgres' },
    );
    engines.set(ctx.jobs, engine);
    // events recorded by API-only processes (PostgreSQL's NOTIFY, heard by the job queue's listener)
    ctx.jobs.onWork(WEBHOOK_TOPIC, () => engine.nudge());
    ctx.stop = async (trace) => {
      await traced(trace, 'webhook delivery loop', () => engine.stop());
      await previousStop?.(trace);
    };
  },
  // the delivery loop polls the outbox: started with the other workers, once the port is open
  background(ctx) {
    webhookEngineOf(ctx)?.start();
  },
};
