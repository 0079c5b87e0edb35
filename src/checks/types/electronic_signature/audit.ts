import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../../db/connect.ts';
import type { SignatureEventRow } from '../../../db/schema.ts';

/** Who made a portal request: what the audit trail records of them. */
export interface Caller {
  ip: string | null;
  userAgent: string | null;
}

/** No caller: a step the service or the API took (the check's creation). */
export const NO_CALLER: Caller = { ip: null, userAgent: null };

/**
 * The audit trail's event types, in the order a signature goes through them. `code_failed` is a
 * wrong code; `link_issued` a new signature link (on start, or a visit after the link expired);
 * `cancelled` an operator's review that decided the check while the request was open.
 */
export type SignatureEventType =
  | 'created'
  | 'request_started'
  | 'link_issued'
  | 'opened'
  | 'code_sent'
  | 'code_failed'
  | 'code_verified'
  | 'signed'
  | 'declined'
  | 'cancelled';

/** Records one audit event of the check, in the caller's transaction. User agents are cut at 500 characters. */
export async function recordSignatureEvent(
  trx: Db,
  check: { id: string; workspace_id: string },
  type: SignatureEventType,
  caller: Caller,
  details: Record<string, unknown> = {},
  at: Date = new Date(),
): Promise<void> {
  await trx
    .insertInto('signature_events')
    .values({
      id: randomUUID(),
      workspace_id: check.workspace_id,
      check_id: check.id,
      type,
      at,
      ip: caller.ip,
      user_agent: caller.userAgent ? caller.userAgent.slice(0, 500) : null,
      details: JSON.stringify(details),
    })
    .execute();
}

/** Each type's place in a signature's course, for events recorded at the same instant. */
const COURSE: readonly SignatureEventType[] = [
  'created',
  'request_started',
  'link_issued',
  'opened',
  'code_sent',
  'code_failed',
  'code_verified',
  'signed',
  'declined',
  'cancelled',
];

/**
 * The check's audit events, oldest first. Events of one step share a timestamp (code_verified and
 * signed are recorded with the same instant; request_started, link_issued and opened within the
 * same millisecond or two): those follow the signature's course, not their random ids, so the
 * trail never shows the signature before the code that allowed it.
 */
export function signatureEventsOf(db: Db, checkId: string): Promise<SignatureEventRow[]> {
  const course = sql<number>`case ${sql.ref('type')} ${sql.join(
    COURSE.map((type, i) => sql`when ${type} then ${sql.lit(i)}`),
    sql` `,
  )} else ${sql.lit(COURSE.length)} end`;
  return db
    .selectFrom('signature_events')
    .selectAll()
    .where('check_id', '=', checkId)
    .orderBy('at')
    .orderBy(course)
    .orderBy('id')
    .execute();
}
