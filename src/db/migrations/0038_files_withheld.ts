import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// A soft-deleted case serves none of its files: at the soft delete, in its transaction, the files
// only that case reaches are marked withheld (src/cases/case-files.ts). A withheld file is read as
// absent (GET /v1/files/{id} → 404, its upload_ref no longer resolves), so a download stays one
// primary-key lookup instead of asking which cases still reference the file.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'alter table files add column withheld_at timestamptz;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'alter table files drop column withheld_at;');
}
