import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The company and individual lists (GET /v1/companies, GET /v1/individuals, issue 17) had an index in
// created_at order only: sorted by any other field they allow, a page read and sorted every member
// of the workspace (companies by name: 700 ms at 1,000,000 companies, against 0.3 ms by created_at;
// docs/list-plans.md). Each sort now has its index, with the id as the tie-break of every list
// order, so a page reads its rows in order, and a pattern filter can walk them
// (src/http/pattern-walk.ts).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create index companies_ws_name on companies(workspace_id, name, id);
     create index companies_ws_activity on companies(workspace_id, last_activity_at, id);
     create index individuals_ws_last_name on individuals(workspace_id, last_name, id);
     create index individuals_ws_first_name on individuals(workspace_id, first_name, id);
     create index individuals_ws_activity on individuals(workspace_id, last_activity_at, id);`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop index individuals_ws_activity;
     drop index individuals_ws_first_name;
     drop index individuals_ws_last_name;
     drop index companies_ws_activity;
     drop index companies_ws_name;`,
  );
}
