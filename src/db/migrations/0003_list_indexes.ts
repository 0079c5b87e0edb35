import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * Measured with bench/foundation.ts over 100k cases: the list's total count dominated its cost
 * (a bitmap heap scan to re-check status for a tag filter). A status index that carries the tags
 * lets the count of "status + tags" filters run as an index-only scan.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create index cases_ws_status_tags on cases(workspace_id, status) include (tags) where deleted_at is null
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop index cases_ws_status_tags');
}
