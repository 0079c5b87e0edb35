import { type RawBuilder, sql } from 'kysely';

/**
 * The `updated_at` a change of a check or a case sets: the transaction's time, and at least a
 * millisecond after the version it replaces. That column is the resource's ETag, to the millisecond
 * as the API writes it (src/http/conditional.ts): with `now()` alone, two changes within one
 * millisecond, or one whose transaction began before the previous change committed (`now()` is the
 * transaction's start), could leave the tag of the version before, and an `If-Match` naming that
 * older version would pass. A row this transaction already stamped (`updated_at = now()`) keeps its
 * stamp: one change, however many statements write it.
 */
export function nextVersionStamp(): RawBuilder<Date> {
  return sql<Date>`greatest(now(), updated_at + case when updated_at = now() then interval '0' else interval '1 millisecond' end)`;
}
