import {
  type PGlite,
  parse,
  protocol,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';
import pgUtils from 'pg/lib/utils.js';

/**
 * PGlite's `query` talks to its PostgreSQL in six calls into the wasm module: Parse, Describe
 * (statement, to learn the parameters' types so that it can serialise them), Bind, Describe
 * (portal), Execute and Sync, each a JS-to-wasm round trip with its own output handling (and, with
 * our yield before each call, its own event-loop turn). Measured on a create-case transaction,
 * those round trips cost more than the statements' own work.
 *
 * Here the five messages of one statement go in one buffer, in one call: the parameters are
 * serialised the way node-postgres serialises them for the PostgreSQL server (`prepareValue`:
 * arrays as array literals, objects as JSON, dates with their offset, buffers as binary), so both
 * databases receive the same text, and PostgreSQL infers the types from the statement as it does
 * for node-postgres. Results are parsed by PGlite's own parser with its type parsers, unchanged.
 * After an error the backend skips to the Sync of the same buffer, so the session is ready again.
 *
 * Kysely's dialect gets this facade; pg-boss and everything else keep the PGlite instance itself.
 * It uses three of PGlite's internals (`_checkReady`, `_runExclusiveQuery`,
 * `_runExclusiveTransaction`; written against 0.5.16): an upgrade of PGlite must check them.
 */
interface ExclusiveRunner {
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  syncToFs(): Promise<void>;
}

const { serialize } = protocol;

function statementMessages(text: string, params: readonly unknown[]): Uint8Array {
  const values = params.map((p) => pgUtils.prepareValue(p)) as (string | Buffer | null)[];
  const parts = [
    serialize.parse({ text }),
    serialize.bind({ values }),
    serialize.describe({ type: 'P' }),
    serialize.execute({}),
    serialize.sync(),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function oneTrip<T>(
  pglite: PGlite,
  text: string,
  params: readonly unknown[] | undefined,
  options: QueryOptions | undefined,
): Promise<Results<T>> {
  const messages = await pglite.execProtocolStream(statementMessages(text, params ?? []), {
    syncToFs: false,
  });
  return parse.parseResults(messages, pglite.parsers, options)[0] as Results<T>;
}

/** The part of PGlite that Kysely's PGlite dialect uses, with `query` in one call. */
export function oneTripQueries(pglite: PGlite): PGlite {
  const inner = pglite as unknown as ExclusiveRunner;
  const run = <T>(text: string, params?: unknown[], options?: QueryOptions) =>
    inner._runExclusiveQuery(() => oneTrip<T>(pglite, text, params, options));
  const facade = {
    get closed() {
      return pglite.closed;
    },
    get ready() {
      return pglite.ready;
    },
    get waitReady() {
      return pglite.waitReady;
    },
    close: () => pglite.close(),
    // outside a transaction: PGlite's own order (ready, the instance's lock, then the statement's)
    query: async <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
      await inner._checkReady();
      return inner._runExclusiveTransaction(async () => {
        const result = await run<T>(text, params, options);
        await inner.syncToFs();
        return result;
      });
    },
    // inside: PGlite holds the instance for the callback; only `query` is replaced
    transaction: <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> =>
      pglite.transaction((tx) =>
        callback(
          Object.create(tx, {
            query: {
              value: <R>(text: string, params?: unknown[], options?: QueryOptions) => {
                if (tx.closed) throw new Error('Transaction is closed');
                return run<R>(text, params, options);
              },
            },
          }) as Transaction,
        ),
      ),
  };
  return facade as unknown as PGlite;
}
