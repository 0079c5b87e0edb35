import type { Db } from './connect.ts';

/**
 * Runs `fn` in a transaction: `db`'s own when it is one already (a caller's, such as the start-up's
 * locked bootstrap: src/db/startup-lock.ts), else a new one. Kysely cannot open a transaction inside
 * a transaction.
 */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return fn(db);
  return db.transaction().execute((trx) => fn(trx as unknown as Db));
}
