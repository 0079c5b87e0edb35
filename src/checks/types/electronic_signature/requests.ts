import { createHash, randomInt } from 'node:crypto';
import type { Db } from '../../../db/connect.ts';
import type { SignatureRequestRow } from '../../../db/schema.ts';

/** A code is good for this long after it was sent. */
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong codes allowed before the code stops working (a new one must be sent). */
export const CODE_MAX_ATTEMPTS = 5;
/** A new code may be sent this long after the previous one. */
export const CODE_RESEND_MS = 60_000;

/** The request of a check, locked for a change when `forUpdate` (inside a transaction). */
export async function findRequest(
  db: Db,
  checkId: string,
  forUpdate = false,
): Promise<SignatureRequestRow | undefined> {
  let q = db.selectFrom('signature_requests').selectAll().where('check_id', '=', checkId);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** A new 6-digit code (uniform, leading zeros kept). */
export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/**
 * The stored form of a code: SHA-256 of the request id and the code, so the hash of one request's
 * code says nothing about another's and the code itself is never stored.
 */
export function hashCode(requestId: string, code: string): string {
  return createHash('sha256').update(`${requestId}:${code}`, 'utf8').digest('hex');
}
