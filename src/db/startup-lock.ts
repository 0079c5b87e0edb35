import { sql } from 'kysely';
import type { Db } from './connect.ts';

/**
 * Runs `fn` while holding a PostgreSQL advisory lock named `name`, on one connection of the pool
 * (`fn` gets that connection as its database; transactions inside it work). For start-up steps that
 * read then write (create the first workspace when there is none): several processes starting
 * together on one database run them one after the other, and the later ones see what the first
 * created. The embedded database needs none: one process holds its data directory.
 */
export async function withStartupLock<T>(
  db: Db,
  kind: 'pglite' | 'postgres',
  name: string,
  fn: (db: Db) => Promise<T>,
): Promise<T> {
  if (kind !== 'postgres') return fn(db);
  return db.connection().execute(async (conn) => {
    const key = `vericase:startup:${name}`;
    await sql`select pg_advisory_lock(hashtext(${key}))`.execute(conn);
    try {
      return await fn(conn);
    } finally {
      await sql`select pg_advisory_unlock(hashtext(${key}))`.execute(conn);
    }
  });
}
