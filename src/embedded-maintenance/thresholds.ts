/**
 * When a table of the embedded database is due a VACUUM or an ANALYZE: PostgreSQL's own autovacuum
 * rules with its default settings (autovacuum_vacuum_threshold 50 and scale factor 0.2,
 * autovacuum_vacuum_insert_threshold 1000 and scale factor 0.2, autovacuum_analyze_threshold 50 and
 * scale factor 0.1), so that a table is maintained on PGlite when it would be on a PostgreSQL server.
 */
export const AUTOVACUUM_DEFAULTS = {
  vacuum: { threshold: 50, scaleFactor: 0.2 },
  vacuumInsert: { threshold: 1000, scaleFactor: 0.2 },
  analyze: { threshold: 50, scaleFactor: 0.1 },
} as const;

/** What the statistics views say of one table (pg_stat_user_tables and pg_class). */
export interface TableActivity {
  /** pg_class.reltuples: the row count the last VACUUM or ANALYZE saw; -1 when neither ran. */
  reltuples: number;
  deadTuples: number;
  insertsSinceVacuum: number;
  modificationsSinceAnalyze: number;
  /**
   * The planner has no statistics on any of its columns (pg_statistic, kept in the catalog: PGlite
   * loses the activity counters above at every restart, not what an ANALYZE stored).
   */
  neverAnalyzed: boolean;
  /** The table's size on disk: a table never analyzed is analyzed once it holds anything. */
  bytes: number;
}

export type MaintenanceAction = 'vacuum (analyze)' | 'vacuum' | 'analyze';

/** The statement a table is due, or null. */
export function maintenanceDue(t: TableActivity): MaintenanceAction | null {
  const rows = Math.max(0, t.reltuples);
  const { vacuum, vacuumInsert, analyze } = AUTOVACUUM_DEFAULTS;
  const needsVacuum =
    t.deadTuples > vacuum.threshold + vacuum.scaleFactor * rows ||
    t.insertsSinceVacuum > vacuumInsert.threshold + vacuumInsert.scaleFactor * rows;
  // a table with rows and no statistics at all is planned with default selectivities: analyze it
  // even below the threshold (the counters start again from zero at every start of PGlite, so a table
  // filled before this module existed would otherwise wait for as many changes again)
  const needsAnalyze =
    t.modificationsSinceAnalyze > analyze.threshold + analyze.scaleFactor * rows ||
    (t.neverAnalyzed && t.bytes > 0);
  if (needsVacuum) return needsAnalyze ? 'vacuum (analyze)' : 'vacuum';
  return needsAnalyze ? 'analyze' : null;
}
