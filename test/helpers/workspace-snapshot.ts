import { sql } from 'kysely';
import type { Db } from '../../src/db/connect.ts';

/** Every row a workspace owns, per table, each row as JSON text, sorted: comparable with deepEqual. */
export type WorkspaceSnapshot = Record<string, string[]>;

/**
 * Reads everything a workspace owns straight from the database, found from the catalogue rather
 * than a list so a new table is included without editing this: its `workspaces` row, every row of
 * every table with a `workspace_id` column, and the rows of tables that only carry a `case_id`
 * (e.g. case_review_due_emissions) belonging to its cases.
 */
export async function snapshotWorkspace(db: Db, workspaceId: string): Promise<WorkspaceSnapshot> {
  const columns = await sql<{ table_name: string; column_name: string }>`
    select table_name, column_name from information_schema.columns
    where table_schema = current_schema() and column_name in ('workspace_id', 'case_id')
  `.execute(db);
  const byTable = new Map<string, Set<string>>();
  for (const { table_name, column_name } of columns.rows) {
    if (!byTable.has(table_name)) byTable.set(table_name, new Set());
    byTable.get(table_name)?.add(column_name);
  }
  const out: WorkspaceSnapshot = {};
  const rowsOf = async (query: ReturnType<typeof sql>) =>
    ((await query.execute(db)).rows as unknown[]).map((r) => JSON.stringify(r)).sort();
  out.workspaces = await rowsOf(sql`select * from workspaces where id = ${workspaceId}`);
  for (const [table, cols] of [...byTable].sort(([a], [b]) => a.localeCompare(b))) {
    out[table] = cols.has('workspace_id')
      ? await rowsOf(sql`select * from ${sql.table(table)} where workspace_id = ${workspaceId}`)
      : await rowsOf(
          sql`select * from ${sql.table(table)} where case_id in (select id from cases where workspace_id = ${workspaceId})`,
        );
  }
  return out;
}

/** Waits until two snapshots taken `gapMs` apart are equal (background jobs done), and returns it. */
export async function settledSnapshot(
  db: Db,
  workspaceId: string,
  { gapMs = 400, timeoutMs = 20_000 } = {},
): Promise<WorkspaceSnapshot> {
  const deadline = Date.now() + timeoutMs;
  let last = await snapshotWorkspace(db, workspaceId);
  for (;;) {
    await new Promise((r) => setTimeout(r, gapMs));
    const next = await snapshotWorkspace(db, workspaceId);
    if (JSON.stringify(next) === JSON.stringify(last)) return next;
    if (Date.now() > deadline)
      throw new Error(`workspace ${workspaceId} still changing after ${timeoutMs} ms`);
    last = next;
  }
}
