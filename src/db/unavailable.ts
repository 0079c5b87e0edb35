import { NETWORK_ERROR_CODES } from '../shared/network-errors.ts';
import { DatabaseTimeoutError } from './query-deadline.ts';

/**
 * Whether an error means the database cannot be reached right now, rather than that a statement was
 * wrong: the API answers such a request 503 with `retry-after` (src/http/errors.ts), as a load
 * balancer or a client's retry policy expects of a passing outage, instead of a 500.
 */

/**
 * PostgreSQL's SQLSTATEs of a server going away or not taking connections: class 08 (connection
 * exception), admin_shutdown, crash_shutdown, cannot_connect_now (starting up), too_many_connections.
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/**
 * Messages without a code: node-postgres's lost connection and pool timeout, a pool or embedded
 * database closed by a shutdown under a request still running, Kysely's driver after its close.
 */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  // pg-pool's and pg's connect deadlines when no DatabaseTimeoutError wraps them
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Cannot use a pool after calling end on the pool',
  'PGlite is closing',
  'PGlite is closed',
  'driver has already been destroyed',
];

function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (
    typeof code === 'string' &&
    (NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_STATES.has(code) || code.startsWith('08'))
  )
    return true;
  return UNAVAILABLE_MESSAGES.some((m) => err.message.startsWith(m));
}

/** Whether the connection a statement ran on cannot carry another: cut by a deadline, or lost. */
export function isConnectionGone(err: unknown): boolean {
  return err instanceof DatabaseTimeoutError || isDatabaseUnavailable(err);
}

/**
 * Whether an error means the disk under the database or the files is full (PostgreSQL's disk_full,
 * the system's ENOSPC): nothing can be recorded until an operator frees space, after which the
 * service goes on by itself (measured with the embedded database on a full filesystem). Answered
 * 503 with its own message rather than 500.
 */
function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '53100' || code === 'ENOSPC';
}

/** `retry-after` of a passing outage (a database or a bucket that cannot be reached): a restart's usual length. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/**
 * What the API answers an error that is an outage rather than a fault (503, src/http/errors.ts):
 * its log line, message and `retry-after`; null for any other error.
 */
export function outageOf(err: unknown): { log: string; message: string; retryAfterSeconds: number } | null {
  if (isStorageFull(err))
    // an operator has to act, so not seconds
    return {
      log: 'the disk is full',
      message: "The server's storage is full: nothing can be recorded until space is freed",
      retryAfterSeconds: 60,
    };
  // PostgreSQL did not answer in time (src/db/query-deadline.ts): a stalled server, a paused pooler,
  // or a database too busy for the load
  const timeout = err instanceof DatabaseTimeoutError ? err.waitingFor : null;
  if (timeout === 'commit')
    return {
      log: 'the database did not confirm a commit in time',
      message:
        'The database did not confirm the change in time: it may or may not have been recorded. Read it back before trying again',
      retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS,
    };
  if (timeout)
    return {
      log: 'the database did not answer in time',
      message: 'The database did not answer in time; try again shortly',
      retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS,
    };
  if (isDatabaseUnavailable(err))
    return {
      log: 'the database is unavailable',
      message: 'The database is unavailable; try again shortly',
      retryAfterSeconds: OUTAGE_RETRY_AFTER_SECONDS,
    };
  return null;
}
