import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The case a stored Idempotency-Key answer is about (the case of the events its request recorded):
// a replay after that case was deleted answers 404 instead of the stored answer, which carries the
// case's data (src/http/idempotency.ts), and an erasure blanks the stored answers of its case.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table idempotency_keys add column case_id uuid;
     create index idempotency_keys_case on idempotency_keys(workspace_id, case_id) where case_id is not null;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop index idempotency_keys_case;
     alter table idempotency_keys drop column case_id;`,
  );
}
