import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Erasing a case (DELETE /v1/cases/{id}?permanent=true) erases its event history too: every event
// of the case, not only those shown as activities, so the case index covers them all. It replaces
// the activities-only one: the activity list of a case reads it with its filter on activity_type
// (nearly every event is an activity), and an event write keeps one index entry for it, not two.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create index events_ws_case_all on events(workspace_id, case_id, created_at) where case_id is not null;
     drop index events_ws_case;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create index events_ws_case on events(workspace_id, case_id, created_at) where activity_type is not null;
     drop index events_ws_case_all;`,
  );
}
