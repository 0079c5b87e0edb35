import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// An activity's field-level changes (the reference's `changes`): which tags a tags activity put on
// or took off the case. The event's payload holds the case as it is after the change only, so the
// activity could not say which tag it was about. Null for every other activity, and for earlier ones.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'alter table events add column activity_changes jsonb;');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'alter table events drop column activity_changes;');
}
