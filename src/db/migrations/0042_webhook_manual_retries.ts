import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// A delivery's automatic retries are counted apart from its manual ones: attempt_count holds both,
// and a manual retry made while automatic ones were still due used one of the eight up
// (docs/webhooks.md, "Retries"). Deliveries made before this migration count every retry as
// automatic, as they did.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    'alter table webhook_deliveries add column manual_retry_count integer not null default 0;',
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'alter table webhook_deliveries drop column manual_retry_count;');
}
