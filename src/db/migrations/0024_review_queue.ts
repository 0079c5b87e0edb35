import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The console's review queue (src/review-queue): checks waiting for a review and cases whose
// reviewer has actions, per workspace in waiting order, read through partial indexes that hold
// only those rows (a small part of a large workspace).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create index checks_ws_need_review on checks(workspace_id, updated_at, id) where status = 'need_review';
     create index cases_ws_reviewer_actions on cases(workspace_id, last_activity_at, id)
       where reviewer_has_actions and deleted_at is null;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop index cases_ws_reviewer_actions;
     drop index checks_ws_need_review;`,
  );
}
