import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Fair webhook claims read each webhook's own queue of pending deliveries in due order: the index
// lets the engine find which webhooks have work (one descent per webhook, a loose index scan) and
// take a few deliveries from each, without reading a large backlog of any of them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create index webhook_deliveries_webhook_due on webhook_deliveries(webhook_id, next_attempt_at) where status = 'pending'`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop index webhook_deliveries_webhook_due');
}
