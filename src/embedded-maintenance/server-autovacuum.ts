import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/** pg-boss's schema (its default, which src/jobs/queue.ts keeps): its tables are ours too. */
export const JOB_QUEUE_SCHEMA = 'pgboss';

/**
 * Whether a PostgreSQL server's own autovacuum is on (`autovacuum`, a server-wide setting that a
 * reload may change at any time), and the schema our tables live in (the connection's current one).
 */
export async function serverAutovacuum(db: Db): Promise<{ on: boolean; schema: string }> {
  const { rows } = await sql<{ on: boolean; schema: string }>`
    select current_setting('autovacuum') = 'on' as on, current_schema() as schema`.execute(db);
  return rows[0] ?? { on: true, schema: 'public' };
}
