import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// When a check the case's template created is deleted on its own before it was approved, template
// auto-approval stops deciding the case (docs/case-graph.md): without this mark the deletion itself
// approved the case whenever the deleted check was the last one not approved. Set by
// DELETE /v1/checks/{id}; cleared when the template runs on the case again or the template changes.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'alter table cases add column template_check_deleted_at timestamptz;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'alter table cases drop column template_check_deleted_at;');
}
