import { createHash, randomInt } from 'node:crypto';
import type { Db } from '../../../db/connect.ts';
import type { SignatureRequestRow } from '../../../db/schema.ts';

/** A code is good for this long after it was sent. */
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong codes allowed before the code stops working (a new one must be sent). */
export const CODE_MAX_ATTEMPTS = 5;
/** A new code may be sent this long after the previous one. */
export const CODE_RESEND_MS = 60_000;
/**
 * The daily cap of one signature: once, within the last `CODE_CAP_WINDOW_MS`, `CODE_CAP_SENDS` codes
 * were sent or `CODE_CAP_FAILURES` wrong codes were entered, no new code is sent until the oldest of
 * them leaves the window. Without it, whoever holds a leaked portal link could guess 5 codes a
 * minute (7,200 a day, a 6-digit code found in about 140 days on average) and mail the signer a code
 * every minute; with it, at most 14 wrong codes a day count against a code.
 */
export const CODE_CAP_WINDOW_MS = 24 * 3_600_000;
export const CODE_CAP_SENDS = 10;
export const CODE_CAP_FAILURES = 10;

/**
 * When the daily cap lets a new code be sent for the check: null while it is under the cap, else
 * the instant the oldest counted event leaves the window (the later of the two counts' instants).
 * Read from the audit trail (`code_sent`, `code_failed`), where every send and wrong code is recorded
 * in the same transaction as the change it describes.
 */
export async function codeCapReleaseAt(db: Db, checkId: string, now: Date): Promise<Date | null> {
  const rows = await db
    .selectFrom('signature_events')
    .select(['type', 'at'])
    .where('check_id', '=', checkId)
    .where('type', 'in', ['code_sent', 'code_failed'])
    .where('at', '>', new Date(now.getTime() - CODE_CAP_WINDOW_MS))
    .orderBy('at', 'desc')
    .execute();
  let release: number | null = null;
  for (const [type, cap] of [
    ['code_sent', CODE_CAP_SENDS],
    ['code_failed', CODE_CAP_FAILURES],
  ] as const) {
    const times = rows.filter((r) => r.type === type).map((r) => new Date(r.at).getTime());
    // the count falls below the cap when its cap-th most recent event leaves the window
    if (times.length >= cap) release = Math.max(release ?? 0, times[cap - 1] + CODE_CAP_WINDOW_MS);
  }
  return release === null ? null : new Date(release);
}

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
