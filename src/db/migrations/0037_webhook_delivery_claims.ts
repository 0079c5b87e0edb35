import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// A case's events in order across worker processes. `claimed_by` names the process whose claim
// holds a `sending` delivery, so a claim can leave alone a webhook-and-case line another process is
// sending (deliver.ts, claimFromWebhooks); the partial index finds a line's `sending` rows (a few
// per webhook at any time) without reading its backlog.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table webhook_deliveries add column claimed_by uuid;
     create index webhook_deliveries_sending_line on webhook_deliveries(webhook_id, case_id) where status = 'sending';`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop index webhook_deliveries_sending_line;
     alter table webhook_deliveries drop column claimed_by;`,
  );
}
