import type { Insertable } from 'kysely';
import pgUtils from 'pg/lib/utils.js';
import type { Database } from './schema.ts';

/** An INSERT (or a piece of one) as text and the parameters its placeholders number. */
export interface InsertText {
  text: string;
  params: unknown[];
  /** The number of the next placeholder, for a statement that goes on after this one. */
  next: number;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function quoted(name: string): string {
  // names come from the code's own row types, never from a request: checked all the same
  if (!IDENTIFIER.test(name)) throw new Error(`not a plain identifier: ${name}`);
  return `"${name}"`;
}

/**
 * `insert into <table> (<columns>) values (...), (...)` for rows built from explicit field lists,
 * with placeholders numbered from `from`. The hot writes (a case graph, events, the audit entry) use
 * it instead of Kysely's builder, which turned each value into a frozen node and visited it back into
 * text: about a sixth of the node process's CPU for a case create's ~300 values (docs/performance.md,
 * "Creating a case"). The meaning is Kysely's: the columns are the keys the rows have, in the order
 * first seen; a key a row lacks, or leaves undefined, is `default`; the values go to the driver as
 * they are, so they are serialised exactly as Kysely's would be.
 */
export function insertValues<T extends keyof Database & string>(
  table: T,
  rows: readonly Insertable<Database[T]>[],
  from = 1,
): InsertText {
  const params: unknown[] = [];
  let n = from;
  const text = insertText(table, rows, (value) => {
    params.push(value);
    return `$${n++}`;
  });
  return { text, params, next: n };
}

/**
 * The same INSERT with its values written as literals, serialised as node-postgres serialises
 * parameters and quoted by its `escapeLiteral`: a statement with no parameters can travel in one
 * simple-protocol message with the COMMIT after it (the audit entry: src/db/commit-companion.ts).
 */
export function insertLiterals<T extends keyof Database & string>(
  table: T,
  rows: readonly Insertable<Database[T]>[],
): string {
  return insertText(table, rows, (value) => {
    const text = pgUtils.prepareValue(value);
    if (text === null) return 'null';
    if (typeof text !== 'string')
      throw new Error(`insertLiterals(${table}): binary values are not supported`);
    return pgUtils.escapeLiteral(text);
  });
}

function insertText(table: string, rows: readonly object[], place: (value: unknown) => string): string {
  if (!rows.length) throw new Error(`insert into ${table}: no rows`);
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    const r = row as Record<string, unknown>;
    for (const key in r) {
      if (r[key] !== undefined && !seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  const tuples: string[] = [];
  for (const row of rows) {
    const r = row as Record<string, unknown>;
    let tuple = '(';
    for (let i = 0; i < columns.length; i++) {
      const value = r[columns[i]];
      if (i > 0) tuple += ', ';
      if (value === undefined) {
        tuple += 'default';
        continue;
      }
      if (
        typeof value === 'function' ||
        (value !== null && typeof value === 'object' && 'toOperationNode' in value)
      )
        throw new Error(
          `insert into ${table}: ${columns[i]} is a SQL expression; only plain values are taken`,
        );
      tuple += place(value);
    }
    tuples.push(`${tuple})`);
  }
  return `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values ${tuples.join(', ')}`;
}
