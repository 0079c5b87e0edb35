import { sql } from 'kysely';
import type { Db } from './connect.ts';

/**
 * Runs `work` in a read transaction whose statements PostgreSQL plans without parallel workers.
 *
 * For a join under a small LIMIT whose rows are spread along the order it walks, the planner can
 * expect a parallel walk (Gather Merge) to be cheaper than a serial one: each worker then reads its
 * share of the order before the first rows come back. The review queue filtered by a case's
 * assignee at 1,000,000 cases: 466 ms a page with two workers, 7.6 ms without; on a 2-core machine
 * under concurrent requests the workers also take the cores the other requests need
 * (docs/list-plans.md, session 29). `SET LOCAL` ends with the transaction, so the pooled connection
 * goes back as it came. The statements of `work` run one after another on the transaction's
 * connection (a page and its count are not concurrent here).
 */
export function withSerialPlans<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
    return work(trx as unknown as Db);
  });
}
