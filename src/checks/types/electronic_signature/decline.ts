import type { AppContext } from '../../../app-context.ts';
import { transactionNow } from '../../../db/transaction-now.ts';
import { badRequest } from '../../../http/errors.ts';
import { type Action, readAction } from '../../../portal/actions.ts';
import type { PortalAccess } from '../../../portal/auth.ts';
import { recordContactAction } from '../../../portal/contact-action.ts';
import { applyOutcome } from '../../engine/apply-change.ts';
import { findSignatureAction, ongoingRequest } from './active.ts';
import { type Caller, recordSignatureEvent } from './audit.ts';
import { findRequest } from './requests.ts';

/**
 * `POST /portal/api/actions/{id}/signature/decline {reason}`: the signer refuses to sign. The check
 * becomes rejected with the reason as its review comment (reviewer_type system: the signer is not a
 * reviewer, and the reference's review has no such kind); the request ends, its code stops working.
 */
export async function declineSignature(
  ctx: AppContext,
  access: PortalAccess,
  checkId: string,
  reason: string,
  caller: Caller,
): Promise<Action> {
  const { link } = access;
  const text = reason.trim();
  if (!text) throw badRequest('reason must say why the document is not signed', 'reason');
  await ctx.db.transaction().execute(async (trx) => {
    const { check, def } = await findSignatureAction(trx, link, checkId, true);
    const request = ongoingRequest(check, await findRequest(trx, checkId, true));
    // the transaction's instant, as the check's and the case's updated_at (now()) have it
    const now = await transactionNow(trx);
    await trx
      .updateTable('signature_requests')
      .set({ status: 'declined', declined_at: now, code_hash: null, updated_at: now })
      .where('id', '=', request.id)
      .execute();
    await recordSignatureEvent(trx, check, 'declined', caller, { reason: text }, now);
    await recordContactAction(trx, link.workspace_id, link.case_id);
    const data = check.data as Record<string, unknown>;
    await applyOutcome(ctx, trx, def, check, {
      trigger: 'decline',
      status: 'rejected',
      data: {
        ...data,
        result: 'rejected',
        vendor: {
          ...(data.vendor as Record<string, unknown>),
          status: 'declined',
          ended_at: now.toISOString(),
          // the signer's own words, kept here: a review overriding the decision replaces
          // `review.comment`, and the portal showed the operator's comment as the signer's reason
          decline_reason: text,
        },
        review: { comment: text, reviewed_at: now.toISOString(), reviewer_type: 'system', user: null },
      },
    });
  });
  return readAction(ctx.db, link, checkId);
}
