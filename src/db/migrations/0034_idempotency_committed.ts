import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// An Idempotency-Key's claim learns, in the same commit, that its request's change was saved
// (src/http/idempotency.ts): a process killed after that commit and before it stored the answer
// left a claim a retry took over after 60 s, and the retry made the change a second time.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'alter table idempotency_keys add column committed_at timestamptz;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'alter table idempotency_keys drop column committed_at;');
}
