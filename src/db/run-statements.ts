import { type Kysely, sql } from 'kysely';

/**
 * Runs a block of DDL one statement at a time: PGlite's extended-protocol `query` refuses
 * multi-statement strings, and the same migration text must run on both databases.
 * Statements are separated by a semicolon at the end of a line.
 */
export async function runStatements(db: Kysely<unknown>, text: string): Promise<void> {
  for (const statement of text.split(/;\s*\n/)) {
    const trimmed = statement.trim().replace(/;$/, '');
    if (trimmed) await sql.raw(trimmed).execute(db);
  }
}
