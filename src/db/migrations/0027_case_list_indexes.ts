import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The case list (GET /v1/cases, issue 17), measured with bench/list-plans.ts over 100k and 1M cases
// (docs/list-plans.md). The three dates of a case move together (created <= updated <= last
// activity), which the planner cannot know: a date filter sorted by another column walked the sort
// index and fetched rows from the heap until 20 matched, up to every row of the workspace (2.9 s at
// 1M cases). Each sort index (created_at, last_activity_at, name) now carries the id tie-break and
// the dates as trailing key columns, so a date filter is checked inside the index and only the rows
// of the page are fetched. They replace the three indexes of 0001 they extend (same leading
// columns: every plan of those still applies). updated_at (filtered by integrations polling for
// changes) and assignee_id had no index: their counts read the table.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create index cases_ws_created_dates on cases(workspace_id, created_at, id, updated_at, last_activity_at)
       where deleted_at is null;
     drop index cases_ws_created;
     create index cases_ws_activity_dates on cases(workspace_id, last_activity_at, id, created_at, updated_at)
       where deleted_at is null;
     drop index cases_ws_activity;
     create index cases_ws_name_dates on cases(workspace_id, name, id, created_at, updated_at, last_activity_at)
       where deleted_at is null;
     drop index cases_ws_name;
     create index cases_ws_updated on cases(workspace_id, updated_at, id) where deleted_at is null;
     create index cases_ws_assignee on cases(workspace_id, assignee_id, created_at, id) where deleted_at is null;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop index cases_ws_assignee;
     drop index cases_ws_updated;
     create index cases_ws_name on cases(workspace_id, name) where deleted_at is null;
     drop index cases_ws_name_dates;
     create index cases_ws_activity on cases(workspace_id, last_activity_at) where deleted_at is null;
     drop index cases_ws_activity_dates;
     create index cases_ws_created on cases(workspace_id, created_at, id) where deleted_at is null;
     drop index cases_ws_created_dates;`,
  );
}
