import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The webhook log (GET /v1/webhook-logs, issue 17), measured with bench/list-plans.ts over 1,000,000
// cases and the 3,000,000 deliveries of their creation (docs/list-plans.md): the deliveries of one
// case, company, individual or event (what a support engineer and the console ask) had no index, so
// their page and their count each read every delivery of the workspace (about 300 ms each). Each
// filter gets an index in the list's order; the partial ones leave out the deliveries without it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create index webhook_deliveries_ws_case on webhook_deliveries(workspace_id, case_id, event_created_at, id)
       where case_id is not null;
     create index webhook_deliveries_ws_company on webhook_deliveries(workspace_id, company_id, event_created_at, id)
       where company_id is not null;
     create index webhook_deliveries_ws_individual
       on webhook_deliveries(workspace_id, individual_id, event_created_at, id) where individual_id is not null;
     create index webhook_deliveries_ws_event on webhook_deliveries(workspace_id, event_id);`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop index webhook_deliveries_ws_event;
     drop index webhook_deliveries_ws_individual;
     drop index webhook_deliveries_ws_company;
     drop index webhook_deliveries_ws_case;`,
  );
}
