import type pg from 'pg';

/**
 * A bound on how long one statement may wait for PostgreSQL's answer (VERICASE_DB_QUERY_TIMEOUT_MS).
 *
 * Why: a database that stalls instead of refusing connections (a connection pooler paused, a network
 * path that drops packets during a failover, a server frozen by its host) left every request waiting
 * for as long as the stall lasted (75 s in issue 9's drill), with no answer at all, where a refused
 * connection is a 503 in milliseconds. PostgreSQL's own `statement_timeout` cannot help there: the
 * statement never reaches the server, or its answer never comes back. So the client keeps the time.
 *
 * When a statement's time is up, its caller gets `DatabaseTimeoutError` (answered 503 with
 * `retry-after`, src/db/unavailable.ts) and the connection is cut: it still has a statement in flight
 * whose answer may come later or never, so it cannot carry another one. The pool drops it and opens
 * another when one is needed. A transaction whose statement timed out is rolled back by the server
 * when it sees the connection gone; a COMMIT that timed out may have been applied (as with any
 * connection lost during a COMMIT): the caller is told the outcome is unknown, never that it failed.
 *
 * `ms` is read at each statement: 0 while the database is migrated (an index built on a large table
 * takes as long as it takes), the configured value once the service runs (src/runtime.ts).
 */
export interface QueryDeadline {
  ms: number;
}

/**
 * PostgreSQL did not answer within a deadline: no connection opened or came free ('connect'), a
 * statement went unanswered ('statement'), or a COMMIT did ('commit': it may have been applied).
 */
export class DatabaseTimeoutError extends Error {
  readonly code = 'VERICASE_DB_TIMEOUT';
  readonly ms: number;
  readonly waitingFor: 'connect' | 'statement' | 'commit';
  constructor(ms: number, waitingFor: DatabaseTimeoutError['waitingFor'], cause?: unknown) {
    super(`The database did not answer within ${ms} ms (waiting for ${WAITS[waitingFor]})`, { cause });
    this.name = 'DatabaseTimeoutError';
    this.ms = ms;
    this.waitingFor = waitingFor;
  }
}

const WAITS = { connect: 'a connection', statement: 'a statement', commit: 'a COMMIT' } as const;

/**
 * The pool as Kysely's driver sees it (connect, end, options, Client), its `connect` failing with
 * `DatabaseTimeoutError` when the pool's own deadline (`connectionTimeoutMillis`) ended the wait.
 * The pool and pg's client each keep that deadline with their own timer and their own message
 * ('timeout exceeded when trying to connect', 'Connection terminated due to connection timeout',
 * 'timeout expired', or the connection's end): a failure that comes once the whole deadline has
 * passed is that deadline, whichever timer fired first.
 */
export function poolWithConnectDeadline(pool: pg.Pool, ms: number) {
  return {
    Client: (pool as unknown as { Client: unknown }).Client,
    get options() {
      return (pool as unknown as { options: unknown }).options;
    },
    end: () => pool.end(),
    async connect(): Promise<pg.PoolClient> {
      const started = performance.now();
      try {
        return await pool.connect();
      } catch (err) {
        // timers fire at the millisecond, never before it: 1 ms of slack for the clocks' rounding
        if (performance.now() - started >= ms - 1) throw new DatabaseTimeoutError(ms, 'connect', err);
        throw err;
      }
    },
  };
}

/** Connections cut by a deadline: their 'error' event is ours, not the server's. */
const cutByDeadline = new WeakSet<pg.ClientBase>();

export function wasCutByDeadline(client: pg.ClientBase): boolean {
  return cutByDeadline.has(client);
}

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Bounds the promise-returning calls of `client.query` (the ones Kysely and pg-boss make). A call
 * with a callback or a submittable (a cursor, a COPY stream) is left as it is: none is used on the
 * application's pool, and their own streams have their own ends.
 */
export function boundQueries(client: pg.ClientBase, deadline: QueryDeadline): void {
  const query = client.query as unknown as QueryFn;
  const bounded: QueryFn = function (this: unknown, ...args: unknown[]) {
    const ms = deadline.ms;
    if (!ms || typeof args[args.length - 1] === 'function' || isSubmittable(args[0])) {
      return query.apply(client, args);
    }
    const pending = query.apply(client, args) as Promise<unknown>;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new DatabaseTimeoutError(ms, isCommit(args[0]) ? 'commit' : 'statement'));
        cutByDeadline.add(client);
        // its statement may still be answered: the connection is of no further use
        const stream = (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection
          ?.stream;
        stream?.destroy();
      }, ms);
      pending.then(
        (result) => {
          clearTimeout(timer);
          resolve(result);
        },
        (err) => {
          clearTimeout(timer);
          reject(err); // a no-op when the deadline already rejected
        },
      );
    });
  };
  (client as unknown as { query: QueryFn }).query = bounded;
}

function isCommit(sql: unknown): boolean {
  return typeof sql === 'string' && /(^|;)\s*commit\s*;?\s*$/i.test(sql);
}

function isSubmittable(arg: unknown): boolean {
  return (
    typeof arg === 'object' && arg !== null && typeof (arg as { submit?: unknown }).submit === 'function'
  );
}
