import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The company and individual lists (GET /v1/companies, GET /v1/individuals, issue 17), measured with
// bench/list-plans.ts over 1,000,000 cases of one company and one individual each
// (docs/list-plans.md). Two families of filters read most of the workspace:
// - A date filter sorted by another date (`updated_at.gte=yesterday` in created_at order, the poll of
//   an integration): the dates of a member move together, which the planner cannot know, so it
//   walked the sort index and fetched rows until 20 matched (up to 1.4 s). As for cases in 0027,
//   each sort index now carries the id tie-break and the dates as trailing key columns, checked inside
//   the index; they replace the indexes of 0001 and 0029 they extend. updated_at gets its own index,
//   so the count of a poll reads only what changed.
// - The lookups by identifier (a company's registration number, an individual's e-mail or birth
//   date) read the whole table (70-90 ms). text_pattern_ops serves both `eq` and a prefix `like`
//   ('12345%') whatever the database's collation.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create index companies_ws_created_dates on companies(workspace_id, created_at, id, updated_at, last_activity_at);
     drop index companies_ws_created;
     create index companies_ws_activity_dates on companies(workspace_id, last_activity_at, id, created_at, updated_at);
     drop index companies_ws_activity;
     create index companies_ws_name_dates on companies(workspace_id, name, id, created_at, updated_at, last_activity_at);
     drop index companies_ws_name;
     create index companies_ws_updated on companies(workspace_id, updated_at, id);
     create index companies_ws_registration on companies(workspace_id, registration_number text_pattern_ops);
     create index individuals_ws_created_dates on individuals(workspace_id, created_at, id, updated_at, last_activity_at);
     drop index individuals_ws_created;
     create index individuals_ws_activity_dates on individuals(workspace_id, last_activity_at, id, created_at, updated_at);
     drop index individuals_ws_activity;
     create index individuals_ws_last_name_dates
       on individuals(workspace_id, last_name, id, created_at, updated_at, last_activity_at);
     drop index individuals_ws_last_name;
     create index individuals_ws_first_name_dates
       on individuals(workspace_id, first_name, id, created_at, updated_at, last_activity_at);
     drop index individuals_ws_first_name;
     create index individuals_ws_updated on individuals(workspace_id, updated_at, id);
     create index individuals_ws_email on individuals(workspace_id, email text_pattern_ops);
     create index individuals_ws_birth_date on individuals(workspace_id, birth_date);`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop index individuals_ws_birth_date;
     drop index individuals_ws_email;
     drop index individuals_ws_updated;
     create index individuals_ws_first_name on individuals(workspace_id, first_name, id);
     drop index individuals_ws_first_name_dates;
     create index individuals_ws_last_name on individuals(workspace_id, last_name, id);
     drop index individuals_ws_last_name_dates;
     create index individuals_ws_activity on individuals(workspace_id, last_activity_at, id);
     drop index individuals_ws_activity_dates;
     create index individuals_ws_created on individuals(workspace_id, created_at, id);
     drop index individuals_ws_created_dates;
     drop index companies_ws_registration;
     drop index companies_ws_updated;
     create index companies_ws_name on companies(workspace_id, name, id);
     drop index companies_ws_name_dates;
     create index companies_ws_activity on companies(workspace_id, last_activity_at, id);
     drop index companies_ws_activity_dates;
     create index companies_ws_created on companies(workspace_id, created_at, id);
     drop index companies_ws_created_dates;`,
  );
}
