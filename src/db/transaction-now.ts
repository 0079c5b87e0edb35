import { sql } from 'kysely';
import type { Db } from './connect.ts';

/**
 * The transaction's own time (`now()`: its start), for a timestamp written beside columns the same
 * transaction stamps with `now()`. A JS clock read a few milliseconds later made a review's
 * reviewed_at later than the updated_at of the case it decided.
 */
export async function transactionNow(trx: Db): Promise<Date> {
  const { rows } = await sql<{ now: Date | string }>`select now() as now`.execute(trx);
  return new Date(rows[0].now);
}
