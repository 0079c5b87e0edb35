import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { Db } from './connect.ts';
import type { Database } from './schema.ts';

type ChangedTable =
  | 'cases'
  | 'companies'
  | 'individuals'
  | 'relations'
  | 'webhooks'
  | 'client_portals'
  | 'templates'
  | 'workspaces';

/**
 * JSON object columns the API presents with every key, a missing key as null (src/shared/address.ts:
 * `fullAddress`, `bankingOut`). A stored value lacking a key (a row written before the key existed)
 * or a null column reads as the same object, so they compare with their nulls stripped.
 */
const PRESENTED_WITH_EVERY_KEY: Partial<Record<ChangedTable, ReadonlySet<string>>> = {
  companies: new Set(['address', 'banking_information']),
  individuals: new Set(['address', 'banking_information']),
};

/**
 * Whether `column` of the row being updated (its stored value, in an UPDATE's WHERE or SET) is
 * another value than `value`, compared in SQL (IS DISTINCT FROM: jsonb, numbers, dates and arrays as
 * values, not as the text sent). For the JSON objects presented with every key, a key missing and a
 * key null are the same.
 */
export function columnChanged(table: ChangedTable, column: string, value: unknown): RawBuilder<boolean> {
  if (PRESENTED_WITH_EVERY_KEY[table]?.has(column)) {
    return sql<boolean>`jsonb_strip_nulls(coalesce(${sql.ref(column)}, '{}'::jsonb)) is distinct from jsonb_strip_nulls(coalesce(cast(${sql.val(value)} as jsonb), '{}'::jsonb))`;
  }
  // sql.val: one parameter even for an array, typed by the column it is compared with
  return sql<boolean>`${sql.ref(column)} is distinct from ${sql.val(value)}`;
}

/**
 * The UPDATE of a PATCH that changes nothing is no write: a client sending back the values it
 * already has must not stamp `updated_at` nor, in the callers, record an event (webhook receivers
 * would see noise). `values` are compared with the stored row in SQL (`columnChanged`); `alongside`
 * (the stamps, a lineage expression) is written only with a change. Undefined when nothing would
 * change: nothing was written. The caller holds the row's lock, so "no row" cannot mean "deleted
 * meanwhile".
 */
export async function updateIfChanged<T extends ChangedTable>(
  trx: Db,
  table: T,
  id: string,
  values: Record<string, unknown>,
  alongside: Record<string, unknown>,
): Promise<Selectable<Database[T]> | undefined> {
  const columns = Object.keys(values);
  if (!columns.length) return undefined;
  // the table is a parameter: Kysely cannot type a dynamic table name, the return type says what comes back
  // biome-ignore lint/suspicious/noExplicitAny: see above
  const q = (trx as any)
    .updateTable(table)
    .set({ ...values, ...alongside })
    .where('id', '=', id)
    // biome-ignore lint/suspicious/noExplicitAny: the expression builder of the dynamic table above
    .where((eb: any) => eb.or(columns.map((c) => columnChanged(table, c, values[c]))))
    .returningAll();
  return q.executeTakeFirst();
}
