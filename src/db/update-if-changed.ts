import type { Selectable } from 'kysely';
import type { Db } from './connect.ts';
import type { Database } from './schema.ts';

type ChangedTable = 'cases' | 'companies' | 'individuals' | 'relations' | 'webhooks';

/**
 * The UPDATE of a PATCH that changes nothing is no write: a client sending back the values it
 * already has must not stamp `updated_at` nor, in the callers, record an event (webhook receivers
 * would see noise). `values` are compared with the stored row in SQL (IS DISTINCT FROM: jsonb,
 * numbers, dates and arrays compared as values, not as the text sent); `alongside` (the stamps, a
 * lineage expression) is written only with a change. Undefined when nothing would change: nothing
 * was written. The caller holds the row's lock, so "no row" cannot mean "deleted meanwhile".
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
    // eb.val: one parameter even for an array (a bare array would be a list, `($1, $2)`)
    // biome-ignore lint/suspicious/noExplicitAny: the expression builder of the dynamic table above
    .where((eb: any) => eb.or(columns.map((c) => eb(c, 'is distinct from', eb.val(values[c])))))
    .returningAll();
  return q.executeTakeFirst();
}
