import type { Db } from '../../../db/connect.ts';
import type { CheckRow } from '../../../db/schema.ts';
import { NO_CALLER, recordSignatureEvent } from './audit.ts';
import { findRequest } from './requests.ts';

/**
 * An operator's review decides the check while its signature request is still open: the request
 * ends there (no code works any more, the portal shows it as ended), the audit trail says by whom,
 * and data.vendor says the request was cancelled and when. A request never started is cancelled in
 * the data alone (there is no request or trail yet); one already signed or declined is left as it is.
 */
export async function endRequestByReview(input: {
  trx: Db;
  check: CheckRow;
  data: Record<string, unknown>;
  decision: 'approved' | 'rejected';
  now: Date;
}): Promise<Record<string, unknown>> {
  const { trx, check, data, decision, now } = input;
  const request = await findRequest(trx, check.id, true);
  const vendor = data.vendor as Record<string, unknown>;
  if (!request && vendor?.status === 'pending') {
    // never started: no request to end, but there will be none either (the portal shows it ended);
    // said in the data as for one ended while ongoing, not left 'pending' with no end
    return { ...data, vendor: { ...vendor, status: 'cancelled', ended_at: now.toISOString() } };
  }
  if (request?.status !== 'ongoing') return data;
  await trx
    .updateTable('signature_requests')
    .set({ status: 'cancelled', code_hash: null, updated_at: now })
    .where('id', '=', request.id)
    .execute();
  const review = data.review as { reviewer_type?: string; comment?: string | null } | undefined;
  await recordSignatureEvent(
    trx,
    check,
    'cancelled',
    NO_CALLER,
    { decision, reviewer_type: review?.reviewer_type ?? 'api', comment: review?.comment ?? null },
    now,
  );
  return {
    ...data,
    vendor: { ...(data.vendor as Record<string, unknown>), status: 'cancelled', ended_at: now.toISOString() },
  };
}
