import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { type MaintenanceAction, maintenanceDue } from './thresholds.ts';

export interface MaintainedTable {
  /** schema.table */
  table: string;
  action: MaintenanceAction;
  ms: number;
  /** The database's message when the statement failed (the pass goes on with the next table). */
  failed?: string;
}

/** Where a pass looks, and how it guards against another process's pass (PostgreSQL only). */
export interface PassScope {
  /**
   * Only the tables of these schemas (ours and the job queue's). Unset: every table of the database,
   * as on the embedded database, which holds nothing else. A PostgreSQL database may hold other
   * applications' tables, which are not ours to maintain.
   */
  schemas?: string[];
  /**
   * Read a due table's counters again just before its statement and skip it when it is no longer
   * due: several processes of the service on one PostgreSQL database each run passes, and the
   * statement of one resets the counters the others read. Without a lock (a session lock and its
   * unlock could reach two server connections through a transaction-mode pooler, and VACUUM cannot
   * run in a transaction to hold a transaction's lock), two passes that overlap may still both run a
   * table's ANALYZE: work done twice, never wrong.
   */
  recheck?: boolean;
}

interface TableCounters {
  schema: string;
  table: string;
  reltuples: number;
  dead: number;
  inserted: number;
  modified: number;
  never_analyzed: boolean;
  bytes: number;
}

const dueOf = (r: TableCounters) =>
  maintenanceDue({
    reltuples: r.reltuples,
    deadTuples: r.dead,
    insertsSinceVacuum: r.inserted,
    modificationsSinceAnalyze: r.modified,
    neverAnalyzed: r.never_analyzed,
    bytes: r.bytes,
  });

/** The activity counters of the plain tables in `schemas` (all when unset), or of one table. */
async function readCounters(db: Db, schemas?: string[], one?: { schema: string; table: string }) {
  const inSchemas = schemas ? sql`and s.schemaname in (${sql.join(schemas)})` : sql``;
  const only = one ? sql`and s.schemaname = ${one.schema} and s.relname = ${one.table}` : sql``;
  const { rows } = await sql<TableCounters>`
    select s.schemaname as schema, s.relname as table, c.reltuples::float8 as reltuples,
      s.n_dead_tup::float8 as dead, s.n_ins_since_vacuum::float8 as inserted,
      s.n_mod_since_analyze::float8 as modified,
      not exists (select from pg_statistic st where st.starelid = s.relid) as never_analyzed,
      pg_relation_size(s.relid)::float8 as bytes
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where c.relkind = 'r' ${inSchemas} ${only}
    order by s.schemaname, s.relname`.execute(db);
  return rows;
}

/**
 * One pass over the database's tables (ours and the job queue's): reads each plain table's
 * activity counters and runs the VACUUM or ANALYZE it is due (src/embedded-maintenance/thresholds.ts),
 * one statement per table, until `stopping()` says the process stops. PGlite runs a statement on the
 * process's only thread, so each one holds the requests for its duration (an ANALYZE samples at most
 * 30,000 rows: about 0.3 s for 100,000 cases on a 2-core machine). `ms` includes the wait for the
 * connection, behind the requests' queries.
 *
 * After each statement the pass pauses as long as the statement took (`pause`), so that while it
 * runs the requests keep at least half of the database's time: back to back, a pass under full
 * create load (8 statements, 1.9 s) let a request through only one of its statements per
 * maintenance statement, and creates fell to a tenth for two seconds. PostgreSQL's autovacuum
 * throttles itself too (vacuum_cost_delay), but inside the statement, which on PGlite's one thread
 * would hold the requests while it sleeps.
 *
 * A statement that fails (a table dropped since the counters were read, a lock it could not take) is
 * recorded with its message and the pass goes on: one table's trouble does not leave the others
 * without their statistics until the next pass.
 */
export async function runMaintenancePass(
  db: Db,
  stopping: () => boolean = () => false,
  pause: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  scope: PassScope = {},
): Promise<MaintainedTable[]> {
  const rows = await readCounters(db, scope.schemas);
  const done: MaintainedTable[] = [];
  for (const r of rows) {
    let action = dueOf(r);
    if (!action) continue;
    const previous = done.at(-1);
    if (previous) await pause(previous.ms);
    // a shutdown waits for the statement in progress, not for the rest of the pass
    if (stopping()) break;
    if (scope.recheck) {
      const [now] = await readCounters(db, scope.schemas, r);
      action = now ? dueOf(now) : null;
      if (!action) continue;
    }
    const started = performance.now();
    let failed: string | undefined;
    try {
      await sql`${sql.raw(action)} ${sql.id(r.schema, r.table)}`.execute(db);
    } catch (err) {
      failed = err instanceof Error ? err.message : String(err);
    }
    const ms = Math.round(performance.now() - started);
    done.push({ table: `${r.schema}.${r.table}`, action, ms, ...(failed === undefined ? {} : { failed }) });
  }
  return done;
}
