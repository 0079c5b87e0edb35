import { type RawBuilder, sql } from 'kysely';
import { columnChanged } from '../../db/update-if-changed.ts';
import { ADDRESS_KEYS } from '../../shared/address.ts';

/** Columns an update may set that are not entity data (they have no lineage). */
const NOT_DATA = new Set(['is_relevant', 'custom_properties']);

/**
 * The `property_origin` column after an update of a company or an individual: every field whose
 * stored value the update changes (address keys as `address.city`...) now comes from the API. A
 * field given with the value it already has keeps its origin (the registry's, say). `set` is what
 * the update writes (the address merged in full); each field is compared with the stored row in
 * the same UPDATE, as `updateIfChanged` compares them (an address key missing and null alike).
 * Entities with no origin map (typed, never imported) keep none: all their values came from the API
 * already. One expression, so a concurrent update cannot lose the other's keys.
 */
export function originAfterUpdate(
  table: 'companies' | 'individuals',
  set: Record<string, unknown>,
): RawBuilder<unknown> | null {
  const marks: RawBuilder<unknown>[] = [];
  const mark = (path: string, changed: RawBuilder<boolean>) =>
    marks.push(
      sql`case when ${changed} then ${JSON.stringify({ [path]: 'input' })}::jsonb else '{}'::jsonb end`,
    );
  for (const [column, value] of Object.entries(set)) {
    if (NOT_DATA.has(column)) continue;
    if (column === 'address') {
      for (const key of ADDRESS_KEYS) {
        mark(
          `address.${key}`,
          sql<boolean>`(address ->> ${key}::text) is distinct from (cast(${sql.val(value)} as jsonb) ->> ${key}::text)`,
        );
      }
    } else mark(column, columnChanged(table, column, value));
  }
  if (!marks.length) return null;
  return sql`case when property_origin is null then null else property_origin || ${sql.join(marks, sql` || `)} end`;
}
