/**
 * Error codes of a socket that could not reach, or lost, its server: what a client of PostgreSQL or
 * of an S3 bucket sees in an outage (answered 503, src/db/unavailable.ts and src/files/storage.ts).
 */
export const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'EAI_AGAIN',
]);
