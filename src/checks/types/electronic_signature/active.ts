import type { Db } from '../../../db/connect.ts';
import type { CheckRow, ClientPortalLinkRow, SignatureRequestRow } from '../../../db/schema.ts';
import { ApiError, badRequest, notFound } from '../../../http/errors.ts';
import { findShown } from '../../../portal/actions.ts';

/** 409 for a signature that was already signed or declined (a double submit, a late click). */
export const alreadyCompleted = (request: SignatureRequestRow) =>
  new ApiError(
    409,
    `This signature was already ${request.status === 'signed' ? 'signed' : 'declined'}`,
    undefined,
    'SIGNATURE_ALREADY_COMPLETED',
  );

/**
 * The ongoing request of a check that still waits for its signer, or the error the step gets: 400
 * before the request started (the page starts it when the signer opens the action), 409 once it
 * ended, 400 when the check was decided otherwise (an operator's review).
 */
export function ongoingRequest(
  check: CheckRow,
  request: SignatureRequestRow | undefined,
): SignatureRequestRow {
  if (!request) throw badRequest('The signature has not started: open the document first');
  // closed by an operator's review: not completed by the signer, simply no longer expected
  if (request.status !== 'ongoing' && request.status !== 'cancelled') throw alreadyCompleted(request);
  if (request.status === 'cancelled' || check.status !== 'in_progress') {
    throw badRequest(`This signature is no longer expected: the check is ${check.status}`);
  }
  return request;
}

/** The electronic_signature action of this id the link shows (locked when `forUpdate`); 404 for any other. */
export async function findSignatureAction(
  db: Db,
  link: ClientPortalLinkRow,
  checkId: string,
  forUpdate: boolean,
) {
  const shown = await findShown(db, link, checkId, forUpdate);
  if (shown.check.type !== 'electronic_signature') throw notFound('Signature');
  return shown;
}
