import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// cases_ws_status_tags (0003) carried each case's whole tags array in a B-tree entry, whose size is
// capped at 2704 bytes: a case with 30 random tags of 100 characters (a workspace holds up to 200)
// failed its insert or update with a 500. The index served one thing, the capped count of a
// `status` filter as an index-only scan, which cases_ws_status (workspace_id, status, created_at)
// serves the same way; a tag filter goes through the GIN index cases_tags (docs/list-plans.md).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop index if exists cases_ws_status_tags;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    'create index cases_ws_status_tags on cases(workspace_id, status) include (tags) where deleted_at is null;',
  );
}
