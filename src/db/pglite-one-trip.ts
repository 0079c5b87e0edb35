import { type PGlite, parse, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import pgUtils from 'pg/lib/utils.js';
import { PreparedInserts, type PreparedUse } from './pglite-prepared-inserts.ts';

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
 * A statement marked for it (the hot inserts) is parsed once under a name and afterwards only bound
 * and executed (pglite-prepared-inserts.ts): its buffer then has no Parse, and may start with the
 * Close of statements the session no longer keeps.
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

/**
 * Parse, Bind, Describe (portal), Execute and Sync of one statement, written into one buffer sized
 * in advance. PGlite's own serialiser did the same work in JavaScript: it counted each string's
 * UTF-8 length a character at a time and grew its buffer by halves, which for a case create's event
 * payloads (~8 kB of JSON) was a fifth of PGlite's JavaScript time (docs/performance.md). Message
 * layouts: PostgreSQL's frontend/backend protocol, as node-postgres writes them; a Buffer parameter
 * goes in binary format, every other in text.
 */
function statementMessages(text: string, params: readonly unknown[], use: PreparedUse): Uint8Array {
  const values = params.map((p) => pgUtils.prepareValue(p)) as (string | Buffer | null)[];
  const binary = values.some((v) => Buffer.isBuffer(v));
  const sizes = values.map((v) => (v === null ? 0 : Buffer.isBuffer(v) ? v.length : Buffer.byteLength(v)));
  const nameLength = use.name.length; // ASCII (pglite-prepared-inserts.ts)
  // Close statement: 'C' len 'S' name
  const closeLength = use.close.reduce((n, name) => n + 1 + 4 + 1 + name.length + 1, 0);
  const textLength = use.parse ? Buffer.byteLength(text) : 0;
  // Parse: 'P' len name text int16(0 parameter types)
  const parseLength = 4 + nameLength + 1 + textLength + 1 + 2;
  // Bind: 'B' len '' name int16 formats [int16...] int16 count (int32 len, bytes)... int16(0 result formats)
  const bindLength =
    4 +
    1 +
    nameLength +
    1 +
    2 +
    (binary ? 2 * values.length : 0) +
    2 +
    sizes.reduce((n, size) => n + 4 + size, 0) +
    2;
  // Describe portal: 'D' len 'P' ''; Execute: 'E' len '' int32(0 rows: all); Sync: 'S' len
  const total =
    closeLength +
    (use.parse ? 1 + parseLength : 0) +
    1 +
    bindLength +
    (1 + 4 + 1 + 1) +
    (1 + 4 + 1 + 4) +
    (1 + 4);
  const out = Buffer.allocUnsafe(total);
  let at = 0;
  for (const name of use.close) {
    out[at++] = 0x43; // C
    at = out.writeInt32BE(4 + 1 + name.length + 1, at);
    out[at++] = 0x53; // S: a statement
    at += out.write(name, at, 'latin1');
    out[at++] = 0;
  }
  if (use.parse) {
    out[at++] = 0x50; // P
    at = out.writeInt32BE(parseLength, at);
    at += out.write(use.name, at, 'latin1');
    out[at++] = 0;
    at += out.write(text, at, 'utf8');
    out[at++] = 0;
    at = out.writeInt16BE(0, at);
  }
  out[at++] = 0x42; // B
  at = out.writeInt32BE(bindLength, at);
  out[at++] = 0; // unnamed portal
  at += out.write(use.name, at, 'latin1');
  out[at++] = 0;
  if (binary) {
    at = out.writeInt16BE(values.length, at);
    for (const v of values) at = out.writeInt16BE(Buffer.isBuffer(v) ? 1 : 0, at);
  } else {
    at = out.writeInt16BE(0, at); // every parameter in text
  }
  at = out.writeInt16BE(values.length, at);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null) {
      at = out.writeInt32BE(-1, at);
      continue;
    }
    at = out.writeInt32BE(sizes[i], at);
    at += Buffer.isBuffer(v) ? v.copy(out, at) : out.write(v, at, 'utf8');
  }
  at = out.writeInt16BE(0, at); // results in text
  out[at++] = 0x44; // D
  at = out.writeInt32BE(6, at);
  out[at++] = 0x50; // portal
  out[at++] = 0;
  out[at++] = 0x45; // E
  at = out.writeInt32BE(9, at);
  out[at++] = 0;
  at = out.writeInt32BE(0, at);
  out[at++] = 0x53; // S
  at = out.writeInt32BE(4, at);
  if (at !== total) throw new Error(`statement messages: wrote ${at} bytes of ${total}`);
  return out;
}

/** A transaction PGlite would not begin: each statement fails with the reason. */
function refusedTransaction(reason: unknown): Transaction {
  const fail = () => Promise.reject(reason);
  return { query: fail, sql: fail, exec: fail, rollback: fail, closed: true } as unknown as Transaction;
}

async function oneTrip<T>(
  pglite: PGlite,
  prepared: PreparedInserts,
  text: string,
  params: readonly unknown[] | undefined,
  options: QueryOptions | undefined,
): Promise<Results<T>> {
  const use = prepared.use(text);
  let messages: Awaited<ReturnType<PGlite['execProtocolStream']>>;
  try {
    messages = await pglite.execProtocolStream(statementMessages(text, params ?? [], use), {
      syncToFs: false,
    });
  } catch (err) {
    prepared.failed(text, use);
    throw err;
  }
  prepared.succeeded(text, use);
  return parse.parseResults(messages, pglite.parsers, options)[0] as Results<T>;
}

/** The part of PGlite that Kysely's PGlite dialect uses, with `query` in one call. */
export function oneTripQueries(pglite: PGlite): PGlite {
  const inner = pglite as unknown as ExclusiveRunner;
  const prepared = new PreparedInserts();
  const run = <T>(text: string, params?: unknown[], options?: QueryOptions) =>
    inner._runExclusiveQuery(() => oneTrip<T>(pglite, prepared, text, params, options));
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
    transaction: <T>(callback: (tx: Transaction) => Promise<T>): Promise<T> => {
      let begun = false;
      return pglite
        .transaction((tx) => {
          begun = true;
          return callback(
            Object.create(tx, {
              query: {
                value: <R>(text: string, params?: unknown[], options?: QueryOptions) => {
                  if (tx.closed) throw new Error('Transaction is closed');
                  return run<R>(text, params, options);
                },
              },
            }) as Transaction,
          );
        })
        .catch((err: unknown) => {
          if (begun) throw err;
          // PGlite refused to begin (the database is closing or closed: a request still running at a
          // shutdown). Kysely's driver waits for this callback to be called before it goes on, and
          // nothing handles this promise's rejection until it commits or rolls back: it hung for ever
          // and the rejection, unhandled, stopped the process. It gets a transaction whose statements
          // fail with PGlite's error instead: the use case fails with it and Kysely rolls back.
          return callback(refusedTransaction(err));
        });
    },
  };
  return facade as unknown as PGlite;
}
