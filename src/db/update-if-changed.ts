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
 * JSON columns holding a record of another table (its id and stamps) whose content is what the
 * column means: the case's `risk` is the same risk when its level, score, components, flags, mode
 * and comment are, whichever assessment (id, created_at) recorded them (src/risks/create-risk.ts).
 */
const COMPARED_WITHOUT_KEYS: Partial<Record<ChangedTable, Readonly<Record<string, readonly string[]>>>> = {
  cases: { risk: ['id', 'created_at', 'updated_at'] },
};

/**
 * Whether `column` of the row being updated (its stored value, in an UPDATE's WHERE or SET) is
 * another value than `value`, compared in SQL (IS DISTINCT FROM: jsonb, numbers, dates and arrays as
 * values, not as the text sent). For the JSON objects presented with every key, a key missing and a
 * key null are the same; for a record's snapshot (COMPARED_WITHOUT_KEYS), its id and stamps are left out.
 */
export function columnChanged(table: ChangedTable, column: string, value: unknown): RawBuilder<boolean> {
  const without = COMPARED_WITHOUT_KEYS[table]?.[column];
  if (without) {
    // the keys are the constants above, inlined as literals
    const minus = sql.join(
      without.map((k) => sql`- ${sql.lit(k)}::text`),
      sql` `,
    );
    return sql<boolean>`(${sql.ref(column)} ${minus}) is distinct from (cast(${sql.val(value)} as jsonb) ${minus})`;
  }
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
