import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The check list (GET /v1/checks, issue 17), measured with bench/list-plans.ts over 1,000,000 cases of
// two checks each (docs/list-plans.md):
// - `sort=last_activity_at` had no index: every page read, joined and sorted all 2M checks (7.2 s);
//   with a filter, 0.6-2.5 s. checks_ws_activity_dates gives it its order.
// - A date filter sorted by another date walked the sort index to the heap, as the case list did
//   before 0027 (up to 3.3 s): each sort index carries the id tie-break and the dates as trailing key
//   columns, checked inside the index; they replace the created_at and updated_at indexes of 0004.
// - A status filter's count read the table until 1,001 matches (a rare status: 100 ms), and its page
//   in the default order walked past the other statuses: checks_ws_status.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create index checks_ws_created_dates on checks(workspace_id, created_at, id, updated_at, last_activity_at);
     drop index checks_ws_created;
     create index checks_ws_updated_dates on checks(workspace_id, updated_at, id, created_at, last_activity_at);
     drop index checks_ws_updated;
     create index checks_ws_activity_dates on checks(workspace_id, last_activity_at, id, created_at, updated_at);
     create index checks_ws_status on checks(workspace_id, status, created_at, id);`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop index checks_ws_status;
     drop index checks_ws_activity_dates;
     create index checks_ws_updated on checks(workspace_id, updated_at, id);
     drop index checks_ws_updated_dates;
     create index checks_ws_created on checks(workspace_id, created_at, id);
     drop index checks_ws_created_dates;`,
  );
}
