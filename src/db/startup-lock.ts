import { sql } from 'kysely';
import type { Db } from './connect.ts';

/**
 * Runs `fn` in one transaction that holds a PostgreSQL advisory lock named `name` (`fn` gets the
 * transaction as its database; what it does is committed together). For start-up steps that read
 * then write (create the first workspace when there is none): several processes starting together
 * on one database run them one after the other, and the later ones see what the first created. The
 * lock is the transaction's (`pg_advisory_xact_lock`), released by its COMMIT or ROLLBACK: a session
 * lock and its unlock could reach two different server connections through a transaction-mode
 * pooler (PgBouncer), which would leave the lock held by a pooled connection and the next start waiting
 * for ever. The embedded database needs none: one process holds its data directory.
 */
export async function withStartupLock<T>(
  db: Db,
  kind: 'pglite' | 'postgres',
  name: string,
  fn: (db: Db) => Promise<T>,
): Promise<T> {
  if (kind !== 'postgres') return fn(db);
  return lockedTransaction(db, name, fn);
}

/** `fn` in one transaction holding the transaction-level advisory lock `vericase:startup:<name>`. */
export function lockedTransaction<T>(db: Db, name: string, fn: (db: Db) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext(${`vericase:startup:${name}`}))`.execute(trx);
    return fn(trx as unknown as Db);
  });
}
