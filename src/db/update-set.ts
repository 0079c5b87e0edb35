/**
 * The one way a PATCH becomes an UPDATE: from an explicit list of the columns a client may set, never
 * from the body's keys, so a field the schema forgot to refuse still cannot reach the database.
 * JSON columns are serialised; `undefined` (absent) fields are left alone.
 */
export function updateSetFrom<I extends object, K extends keyof I & string>(
  input: I,
  columns: readonly K[],
  jsonColumns: readonly K[] = [],
): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const column of columns) {
    const value = input[column];
    if (value === undefined) continue;
    set[column] = jsonColumns.includes(column) && value !== null ? JSON.stringify(value) : value;
  }
  return set;
}
