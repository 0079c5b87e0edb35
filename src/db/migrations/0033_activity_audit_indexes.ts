import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The activity list, the audit log and the review queue (issue 17), measured with
// bench/list-plans.ts over 1,000,000 cases, their 7.5M events, 3.4M audit entries and 100k checks
// waiting for a review (docs/list-plans.md):
// - GET /v1/audit-log?resource_id=… (who touched this case, this check) read all 3.4M entries for
//   its page and again for its count, about 0.5 s each; a rare action (`console.login`,
//   `api_key.delete`) or a refused request's status walked most of the log. Each gets an index in
//   the log's order; `text_pattern_ops` lets `action.like=check.aml.%` read a prefix of it, and the
//   status index holds only refusals and failures (status_code >= 400), what one looks for.
// - GET /v1/activities?author_id=… counted by reading the events in table order (77 ms).
// - GET /v1/review-queue/checks with a date filter on the other date than its sort walked the
//   waiting checks to the heap (0.35–0.47 s): as for the other lists, the queue's order indexes
//   carry the other date as a trailing key column, checked in the index.
// - GET /v1/review-queue/cases?assignee_id=… (a reviewer's own queue) read every case of the
//   assignee to keep those whose reviewer has actions (51 ms a count, every request): a partial
//   index of the queue's cases by assignee; and the queue's other order, `sort=created_at`, walked
//   every case by creation to find those of the queue (a tag's page 14–17 ms): one of its own.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create index audit_log_ws_resource on audit_log(workspace_id, resource_id, occurred_at desc, id desc)
       where resource_id is not null;
     create index audit_log_ws_action on audit_log(workspace_id, action text_pattern_ops, occurred_at desc, id desc);
     create index audit_log_ws_refused on audit_log(workspace_id, status_code, occurred_at desc, id desc)
       where status_code >= 400;
     create index events_ws_author on events(workspace_id, actor_id, created_at, seq)
       where actor_id is not null and activity_type is not null;
     create index checks_ws_need_review_dates on checks(workspace_id, updated_at, id, created_at)
       where status = 'need_review';
     create index checks_ws_need_review_created on checks(workspace_id, created_at, id, updated_at)
       where status = 'need_review';
     drop index checks_ws_need_review;
     create index cases_ws_reviewer_assignee on cases(workspace_id, assignee_id, last_activity_at, id)
       where reviewer_has_actions and deleted_at is null;
     create index cases_ws_reviewer_created on cases(workspace_id, created_at, id)
       where reviewer_has_actions and deleted_at is null;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop index cases_ws_reviewer_created;
     drop index cases_ws_reviewer_assignee;
     create index checks_ws_need_review on checks(workspace_id, updated_at, id) where status = 'need_review';
     drop index checks_ws_need_review_created;
     drop index checks_ws_need_review_dates;
     drop index events_ws_author;
     drop index audit_log_ws_refused;
     drop index audit_log_ws_action;
     drop index audit_log_ws_resource;`,
  );
}
