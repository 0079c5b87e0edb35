import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type TransactionSettings,
} from 'kysely';
import { type CommitCompanion, currentCommitCompanions } from '../shared/request-scope.ts';
import { isConnectionGone } from './unavailable.ts';

/**
 * A dialect whose transactions carry the current request's commit companion (its audit entry,
 * src/shared/request-scope.ts): the first read-write transaction a request commits runs the
 * companion's statement just before its COMMIT, on the same connection. The change and its record
 * then commit together or not at all, and the record costs no commit (no WAL flush) of its own.
 *
 * Done here rather than in each of the use cases' transactions: every write use case gets it, the
 * ones to come included, and none of them has to know the audit log exists.
 *
 * `withCommit`: the driver's COMMIT is the plain statement `commit` (Kysely's PostgresDriver), so the
 * companion's statement (SQL text with literal values) is sent with it, `<statement>; commit` in one
 * simple-protocol message: one round trip where there were two (a statement that fails stops the
 * message there, and the transaction is rolled back as before). PGlite's driver commits through
 * PGlite's own transaction call, so there the two stay apart.
 */
export function withCommitCompanion(dialect: Dialect, opts: { withCommit: boolean }): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new CompanionDriver(dialect.createDriver(), opts.withCommit),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  };
}

class CompanionDriver implements Driver {
  readonly #inner: Driver;
  /** Connections in a read-only transaction: a companion would fail there, it waits for another. */
  readonly #readOnly = new WeakSet<DatabaseConnection>();
  readonly #withCommit: boolean;

  constructor(inner: Driver, withCommit: boolean) {
    this.#inner = inner;
    this.#withCommit = withCommit;
    // savepoints are optional in a driver: offered only when the wrapped one has them
    if (inner.savepoint) this.savepoint = inner.savepoint.bind(inner);
    if (inner.rollbackToSavepoint) this.rollbackToSavepoint = inner.rollbackToSavepoint.bind(inner);
    if (inner.releaseSavepoint) this.releaseSavepoint = inner.releaseSavepoint.bind(inner);
  }

  savepoint?: Driver['savepoint'];
  rollbackToSavepoint?: Driver['rollbackToSavepoint'];
  releaseSavepoint?: Driver['releaseSavepoint'];

  init(...args: Parameters<Driver['init']>) {
    return this.#inner.init(...args);
  }
  acquireConnection(...args: Parameters<Driver['acquireConnection']>) {
    return this.#inner.acquireConnection(...args);
  }
  releaseConnection(...args: Parameters<Driver['releaseConnection']>) {
    return this.#inner.releaseConnection(...args);
  }
  destroy(...args: Parameters<Driver['destroy']>) {
    return this.#inner.destroy(...args);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (settings.accessMode === 'read only') this.#readOnly.add(connection);
    else this.#readOnly.delete(connection);
    await this.#inner.beginTransaction(connection, settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const companions = this.#readOnly.has(connection) ? null : currentCommitCompanions();
    if (!companions) return this.#inner.commitTransaction(connection);
    const taken: CommitCompanion[] = [];
    const statements: string[] = [];
    for (const companion of companions) {
      const statement = companion.take();
      if (!statement) continue;
      taken.push(companion);
      statements.push(statement);
    }
    if (!taken.length) return this.#inner.commitTransaction(connection);
    try {
      if (this.#withCommit) {
        await connection.executeQuery(CompiledQuery.raw(`${statements.join(';\n')};\ncommit`));
      } else {
        // one statement per query: PGlite's query takes no more
        for (const statement of statements) await connection.executeQuery(CompiledQuery.raw(statement));
        await this.#inner.commitTransaction(connection);
      }
    } catch (err) {
      for (const companion of taken) companion.settle(false);
      throw err;
    }
    for (const companion of taken) companion.settle(true);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.#inner.rollbackTransaction(connection);
    } catch (err) {
      // The connection is gone (cut by a statement's deadline, lost with the server): PostgreSQL
      // rolls the transaction back when it sees the connection end, and the driver has already
      // marked the connection to be discarded. Kysely would report this error in place of the one
      // that stopped the transaction: a COMMIT that timed out (whose outcome is unknown, and whose
      // 503 says so) would read as a plain outage.
      if (isConnectionGone(err)) return;
      throw err;
    }
  }
}
