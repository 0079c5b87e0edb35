import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.ts';
import { trackEmbeddedDatabase, trackPool } from '../ops/metrics.ts';
import { withCommitCompanion } from './commit-companion.ts';
import { acquireDataDirLock } from './data-dir-lock.ts';
import { assertUsableDataDir, openFailure } from './pgdata-check.ts';
import {
  boundQueries,
  poolWithConnectDeadline,
  type QueryDeadline,
  wasCutByDeadline,
} from './query-deadline.ts';
import type { Database } from './schema.ts';
import { timestampParser } from './timestamp-parser.ts';

/** Shared buffers of the embedded database (PostgreSQL's default is 128MB). */
const PGLITE_SHARED_BUFFERS = '32MB';
/**
 * PGlite (its JavaScript, and its wasm inlined as base64) is imported only when the embedded
 * database is opened: a service on PostgreSQL never holds it (docs/performance.md).
 */
async function loadPglite() {
  const [{ PGlite, types }, { oneTripQueries }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('./pglite-one-trip.ts'),
  ]);
  // PGlite's own start parameters (single-user mode, search_path, no parallel workers...)
  const startParams = (PGlite as unknown as { defaultStartParams: string[] }).defaultStartParams;
  const parseTimestamptz = timestampParser(types.parsers[types.TIMESTAMPTZ]);
  return { PGlite, startParams, oneTripQueries, parsers: { [types.TIMESTAMPTZ]: parseTimestamptz } };
}

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded instance, for pg-boss's PGlite adapter. */
  pglite: PGlite | null;
  connectionString: string | null;
  /**
   * The bound on each statement's wait for PostgreSQL (src/db/query-deadline.ts): none (0) when the
   * database is opened, so that migrations take their time; the service sets its own afterwards.
   * The embedded database runs in this process and cannot stall apart from it: no bound there.
   */
  queryDeadline: QueryDeadline;
  close(): Promise<void>;
}

// DATE columns are kept as text in the schema; int8 (bigserial) comes back as string: keep it so.
pg.types.setTypeParser(1082, (v: string) => v);
// timestamptz: the common form read without a regular expression, anything else by pg's own parser
pg.types.setTypeParser(1184, timestampParser(pg.types.getTypeParser(1184)));

/**
 * Opens the configured database. `onConnectionLost` hears of each connection PostgreSQL ends
 * (PostgreSQL only): see below.
 */
export async function openDatabase(
  config: Config,
  onConnectionLost: (err: Error) => void = () => undefined,
): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.dbPoolMax,
      // how long a request waits for a connection: one to open (a server that does not answer) or one
      // to be given back (all busy); past it, 'timeout exceeded when trying to connect' is a 503
      connectionTimeoutMillis: config.dbConnectTimeoutMs,
    });
    const queryDeadline: QueryDeadline = { ms: 0 };
    // A connection the server ends (a restart, a failover, pg_terminate_backend, a proxy's or
    // idle_session_timeout's cut) while no statement of it runs is reported as an 'error' event: of
    // the connection, and of the pool too when it was idle. With no listener, Node made the event an
    // uncaught exception and the process stopped when PostgreSQL restarted. The pool drops such a
    // connection (idle, or when it is given back) and opens another when one is next needed; a
    // request that held it fails at its next statement (503: src/db/unavailable.ts).
    pool.on('connect', (client) => {
      boundQueries(client, queryDeadline);
      client.on('error', (err) => {
        if (!wasCutByDeadline(client)) onConnectionLost(err);
      });
    });
    pool.on('error', () => undefined); // the same error, reported by the connection's listener
    const db = new Kysely<Database>({
      dialect: withCommitCompanion(
        new PostgresDialect({ pool: poolWithConnectDeadline(pool, config.dbConnectTimeoutMs) as never }),
        { withCommit: true },
      ),
    });
    const untrack = trackPool(pool);
    return {
      db,
      kind: 'postgres',
      pglite: null,
      connectionString: config.databaseUrl,
      queryDeadline,
      close: () => {
        untrack();
        return db.destroy();
      },
    };
  }
  const release = acquireDataDirLock(config.dataDir);
  try {
    const pgdata = path.join(config.dataDir, 'pgdata');
    // checked under the lock: a damaged directory is refused, never re-initialised empty
    assertUsableDataDir(config.dataDir);
    const existed = fs.existsSync(path.join(pgdata, 'PG_VERSION'));
    const { PGlite, startParams, oneTripQueries, parsers } = await loadPglite();
    // PGlite compiles its wasm asynchronously, a wait that is no handle of the event loop's. With
    // nothing else pending the loop ends its turn, and Node then drains V8's platform tasks, which
    // *blocks until every background task is done*: the optimising (TurboFan) compiles of the wasm
    // functions PGlite's start made hot, 0.3-0.45 s during which nothing ran (a start's CPU profile
    // showed it as idle, after the first query's messages were built). With a timer pending the loop
    // stays in its turn, the compile's end arrives as a task of the loop, and those compiles finish in
    // the background while the start goes on (docs/performance.md, "Start-up").
    const keepLoopBusy = setInterval(() => undefined, 60_000);
    const pglite = await PGlite.create(pgdata, {
      // PostgreSQL's default 128 MB of shared buffers sit inside the process (wasm memory): an idle
      // service held 300 MB for the database alone. The data files are read through the OS page cache
      // anyway; 32 MB keeps the hot pages of a small installation (docs/performance.md).
      // (a start parameter: PGlite's `postgresqlconf` option would replace the whole postgresql.conf)
      startParams: [...startParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
      parsers,
    })
      .catch((err) => {
        throw existed ? openFailure(pgdata, err) : err;
      })
      .finally(() => clearInterval(keepLoopBusy));
    yieldBeforeEachQuery(pglite);
    const db = new Kysely<Database>({
      dialect: withCommitCompanion(new PGliteDialect({ pglite: oneTripQueries(pglite) }), {
        withCommit: false,
      }),
    });
    const untrack = trackEmbeddedDatabase();
    return {
      db,
      kind: 'pglite',
      pglite,
      connectionString: null,
      queryDeadline: { ms: 0 },
      close: async () => {
        untrack();
        await db.destroy();
        if (!pglite.closed) await pglite.close();
        release();
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * PGlite runs every query synchronously on the main thread and hands the next waiting query over
 * through promises only, so under load the queries chain in the microtask queue and Node never
 * reaches its I/O phase: connections that were not already being served wait until the queue runs
 * dry (measured: first requests of new connections waiting 30 s and more while others were served
 * in 1-3 s). Yielding to the event loop (setImmediate) before each query lets I/O in between.
 */
function yieldBeforeEachQuery(pglite: PGlite): void {
  const exec = pglite.execProtocolRaw.bind(pglite);
  pglite.execProtocolRaw = async (message, options) => {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return exec(message, options);
  };
}
