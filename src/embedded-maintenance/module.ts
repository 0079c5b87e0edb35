import type pino from 'pino';
import type { AppContext } from '../app-context.ts';
import type { Db } from '../db/connect.ts';
import type { Module } from '../modules.ts';
import { MaintenanceLoop } from './loop.ts';
import { JOB_QUEUE_SCHEMA, serverAutovacuum } from './server-autovacuum.ts';

/** The loop of each runtime (keyed by its job queue, as the webhook engine is). */
const loops = new WeakMap<object, MaintenanceLoop>();

/**
 * The database's autovacuum where nothing else runs one. PGlite runs PostgreSQL in single-user mode,
 * where no autovacuum process exists: without this, its tables were never analyzed, so every list
 * was planned with default selectivities (a filtered case list over 100,000 cases took 47 ms instead
 * of 1.8 ms), and dead rows and the visibility map waited for nobody. A PostgreSQL server runs its
 * own autovacuum, unless its `autovacuum` setting is off (some CI and bulk-load setups turn it off):
 * then its tables were never analyzed either, and `GET /v1/cases/{id}` after 6,000 cases created
 * through the API served 190 requests a second where an ANALYZE made it 580 (the external id's
 * lookup read the whole workspace through the wrong index). So on PostgreSQL the same loop runs, but
 * each pass first asks the server: it does nothing while the server's autovacuum is on.
 */
export const embeddedMaintenanceModule: Module = {
  name: 'embedded-maintenance',
  install() {},
  background(ctx: AppContext, logger) {
    const seconds = ctx.config.embeddedMaintenanceSeconds;
    if (seconds <= 0 || loops.has(ctx.jobs)) return;
    const log = logger.child({ module: 'embedded-maintenance' });
    const loop =
      ctx.dbKind === 'pglite'
        ? new MaintenanceLoop(ctx.db, log, seconds * 1000, {
            checkpoints: true,
            subject: 'embedded database',
          })
        : serverLoop(ctx.db, log, seconds * 1000);
    loops.set(ctx.jobs, loop);
    loop.start();
  },
  async stop(ctx) {
    await loops.get(ctx.jobs)?.stop();
    loops.delete(ctx.jobs);
  },
};

/**
 * PostgreSQL: a pass runs only while the server's autovacuum is off (read before each pass, so a
 * reload that turns it on or off is followed), over our schema's and the job queue's tables only,
 * rechecking each due table before its statement (several processes share the database). The
 * server has its own checkpointer: no CHECKPOINT. The first pass that finds autovacuum off says so
 * once at warn, with what the operator can do.
 */
function serverLoop(db: Db, log: pino.Logger, intervalMs: number): MaintenanceLoop {
  let warned = false;
  return new MaintenanceLoop(db, log, intervalMs, {
    checkpoints: false,
    subject: 'PostgreSQL tables',
    scope: async () => {
      const server = await serverAutovacuum(db);
      if (server.on) return null;
      if (!warned) {
        warned = true;
        log.warn(
          { intervalSeconds: intervalMs / 1000 },
          "PostgreSQL's autovacuum is off: vericase runs the VACUUM and ANALYZE its own tables are due " +
            'by autovacuum’s default rules (VERICASE_EMBEDDED_MAINTENANCE_SECONDS; 0 turns this off)',
        );
      }
      return { schemas: [server.schema, JOB_QUEUE_SCHEMA], recheck: true };
    },
  });
}
