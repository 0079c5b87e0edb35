import { type RawBuilder, sql } from 'kysely';
import { columnChanged } from '../../db/update-if-changed.ts';
import { ADDRESS_KEYS } from '../../shared/address.ts';

/** Columns an update may set that are not entity data (they have no lineage). */
const NOT_DATA = new Set(['is_relevant', 'custom_properties']);

/**
 * The `property_origin` column after an update of a company or an individual: every field whose
 * stored value the update changes (address keys as `address.city`...) now comes from the API. A
 * field given with the value it already has keeps its origin (the registry's, say). A changed field
 * records when it changed and the registry's value it replaced (EditedOrigin). `set` is what
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
  // the stored value before the update (the row's old values in the UPDATE's SET): the registry's,
  // when the field's origin is still the registry; a field edited before keeps the registry value
  // it first replaced
  const mark = (path: string, changed: RawBuilder<boolean>, before: RawBuilder<unknown>) => {
    const prior = sql`property_origin -> ${path}::text`;
    marks.push(
      sql`case when ${changed} then jsonb_build_object(${path}::text,
        jsonb_build_object('origin', 'input', 'at', to_jsonb(now()))
        || case
          when ${prior} = '"registry"'::jsonb then jsonb_build_object('registry_value', ${before})
          when ${prior} -> 'registry_value' is not null
            then jsonb_build_object('registry_value', ${prior} -> 'registry_value')
          else '{}'::jsonb end)
      else '{}'::jsonb end`,
    );
  };
  for (const [column, value] of Object.entries(set)) {
    if (NOT_DATA.has(column)) continue;
    if (column === 'address') {
      for (const key of ADDRESS_KEYS) {
        mark(
          `address.${key}`,
          sql<boolean>`(address ->> ${key}::text) is distinct from (cast(${sql.val(value)} as jsonb) ->> ${key}::text)`,
          sql`coalesce(address -> ${key}::text, 'null'::jsonb)`,
        );
      }
    } else
      mark(
        column,
        columnChanged(table, column, value),
        sql`coalesce(to_jsonb(${sql.ref(column)}), 'null'::jsonb)`,
      );
  }
  if (!marks.length) return null;
  return sql`case when property_origin is null then null else property_origin || ${sql.join(marks, sql` || `)} end`;
}
