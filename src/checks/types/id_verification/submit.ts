import type { AppContext } from '../../../app-context.ts';
import type { Db } from '../../../db/connect.ts';
import type { CheckRow } from '../../../db/schema.ts';
import { attachUpload } from '../../../files/attach-upload.ts';
import { badRequest } from '../../../http/errors.ts';
import type { PendingPortalFile } from '../../../portal/portal-action.ts';
import type { CheckTypeDefinition } from '../../check-type.ts';
import { applyOutcome } from '../../engine/apply-change.ts';
import { nextAttempt } from '../../engine/attempts.ts';
import { processAfter } from '../../engine/queues.ts';
import {
  type CaptureFiles,
  emptyDocumentResults,
  emptyFaceResults,
  emptyInformation,
  emptyReview,
  type IdVerificationInternal,
} from './check-data.ts';

/**
 * The contact's capture (from the portal's submit, in its transaction): the pending uploads become
 * the check's files, the check goes to processing and the verification is queued, all in `trx`.
 * `ip` is the contact's device as the service saw it. From `in_progress` it is the same attempt; from `rejected` a new attempt opens (the previous one
 * moves to the history). Any other status → 400.
 */
export async function submitCapture(
  ctx: AppContext,
  trx: Db,
  def: CheckTypeDefinition,
  check: CheckRow,
  pending: PendingPortalFile[],
  ip: string,
): Promise<CheckRow> {
  if (check.status !== 'in_progress' && check.status !== 'rejected') {
    throw badRequest(`This verification was already submitted (it is ${check.status})`);
  }
  const bySlot = (slot: string) => pending.find((f) => f.slot === slot);
  const attach = async (slot: string) => {
    const f = bySlot(slot);
    return f ? attachUpload(trx, check.workspace_id, f.upload_ref, slot) : null;
  };
  const front = await attach('front');
  const face = await attach('face');
  // the portal refuses a submission without its required slots before calling this
  if (!front) throw badRequest('The front of the identity document is missing', 'front');
  if (!face) throw badRequest('The selfie is missing', 'face');
  const files: CaptureFiles = { front, back: await attach('back'), face, video: await attach('video') };
  const data = check.data as Record<string, unknown>;
  const internal: IdVerificationInternal = {
    ...(check.internal as unknown as IdVerificationInternal),
    files,
    analysis: null,
  };
  return applyOutcome(ctx, trx, def, check, {
    trigger: 'submit',
    status: 'processing',
    data: {
      ...data,
      result: null,
      vendor: {
        ...(data.vendor as Record<string, unknown>),
        verification_status: 'submitted',
        started_at: new Date().toISOString(),
        ended_at: null,
        comment: null,
        report_file_id: null,
      },
      review: emptyReview(),
      detailed_results: { document: emptyDocumentResults(), face: emptyFaceResults() },
      // the reference's "IP address of the device used to complete the flow": the submitting one
      information: { ...emptyInformation(files), ip_address: ip },
    },
    internal: internal as unknown as Record<string, unknown>,
    ...(check.status === 'rejected' ? { ...nextAttempt(check), expiresAt: null } : {}),
    process: processAfter(ctx),
  });
}
