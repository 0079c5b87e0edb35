import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The review queue ordered its checks by `updated_at`, which every change of a check's data moves:
// a reviewer deciding one hit of an aml check sent that check, still waiting, to the end of the
// queue with a "waiting since" of a minute ago. `need_review_since` is set when a check enters
// need_review and left alone while it stays there (src/checks/engine/apply-change.ts). Checks
// already waiting take their `updated_at`, the best the rows know. Its index serves the queue's
// default order as 0024's serves the `updated_at` one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table checks add column need_review_since timestamptz;
     update checks set need_review_since = updated_at where status = 'need_review';
     create index checks_ws_need_review_since on checks(workspace_id, need_review_since, id)
       where status = 'need_review';`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop index checks_ws_need_review_since;
     alter table checks drop column need_review_since;`,
  );
}
