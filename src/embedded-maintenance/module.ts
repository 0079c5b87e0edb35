import type { AppContext } from '../app-context.ts';
import type { Module } from '../modules.ts';
import { MaintenanceLoop } from './loop.ts';

/** The loop of each runtime (keyed by its job queue, as the webhook engine is). */
const loops = new WeakMap<object, MaintenanceLoop>();

/**
 * The embedded database's autovacuum. PGlite runs PostgreSQL in single-user mode, where no
 * autovacuum process exists: without this, its tables were never analyzed, so every list was planned
 * with default selectivities (a filtered case list over 100,000 cases took 47 ms instead of 1.8 ms),
 * and dead rows and the visibility map waited for nobody. On PostgreSQL the server's own autovacuum
 * does this, and the module does nothing.
 */
export const embeddedMaintenanceModule: Module = {
  name: 'embedded-maintenance',
  install() {},
  background(ctx: AppContext, logger) {
    const seconds = ctx.config.embeddedMaintenanceSeconds;
    if (ctx.dbKind !== 'pglite' || seconds <= 0 || loops.has(ctx.jobs)) return;
    const loop = new MaintenanceLoop(
      ctx.db,
      logger.child({ module: 'embedded-maintenance' }),
      seconds * 1000,
    );
    loops.set(ctx.jobs, loop);
    loop.start();
  },
  async stop(ctx) {
    await loops.get(ctx.jobs)?.stop();
    loops.delete(ctx.jobs);
  },
};
