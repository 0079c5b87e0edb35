import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { Module } from '../modules.ts';

/**
 * Drops the Idempotency-Key rows older than their retention (VERICASE_IDEMPOTENCY_RETENTION_HOURS,
 * 24 h): each kept a request's hash and its whole answer, and nothing ever removed them, so the
 * table grew with every keyed POST. A retry after the retention is a new request (src/http/
 * idempotency.ts treats an expired row as absent even before this pass removes it). Returns how
 * many rows went. Not indexed by age: the table holds about one retention's worth of keys, read
 * once an hour, where an index would cost every keyed POST a write.
 */
export async function pruneIdempotencyKeys(db: Db, retentionHours: number): Promise<number> {
  if (retentionHours <= 0) return 0;
  const res = await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<', sql<Date>`now() - ${sql.lit(`${retentionHours} hours`)}::interval`)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** The hourly prune of the Idempotency-Key rows past their retention. */
export const idempotencyModule: Module = {
  name: 'idempotency',
  install(ctx, logger) {
    ctx.jobs.define({
      name: 'idempotency.prune-keys',
      cron: '41 * * * *',
      retryLimit: 0,
      handler: async () => {
        const pruned = await pruneIdempotencyKeys(ctx.db, ctx.config.idempotencyRetentionHours);
        if (pruned) logger.info({ pruned }, 'Idempotency-Key rows past their retention pruned');
      },
    });
  },
};
