import type { AppContext } from '../../../app-context.ts';
import { ApiError, badRequest } from '../../../http/errors.ts';
import { type Action, readAction } from '../../../portal/actions.ts';
import type { PortalAccess } from '../../../portal/auth.ts';
import { recordContactAction } from '../../../portal/contact-action.ts';
import { findSignatureAction, ongoingRequest } from './active.ts';
import { type Caller, recordSignatureEvent } from './audit.ts';
import type { ElectronicSignatureInternal } from './check-data.ts';
import { codeMail, mailLanguage, type PageLanguage } from './code-mail.ts';
import { sendMail } from './deps.ts';
import { emailHint } from './present-signature.ts';
import {
  CODE_CAP_FAILURES,
  CODE_CAP_SENDS,
  CODE_RESEND_MS,
  CODE_TTL_MS,
  codeCapReleaseAt,
  findRequest,
  hashCode,
  newCode,
} from './requests.ts';
import { staleCodeReason } from './sign.ts';

/**
 * `POST /portal/api/actions/{id}/signature/send-code`: a new 6-digit code to the signer's e-mail,
 * stored only as a hash, valid 10 minutes for 5 attempts; an earlier code stops working. At most
 * one send a minute (429 SIGNATURE_CODE_RESEND_TOO_SOON), and none once the day's cap is reached
 * (429 SIGNATURE_CODE_LIMIT_REACHED, requests.ts). The mail is sent inside the transaction, last: when it cannot be sent
 * (502) nothing is recorded and the signer may try again at once. The mail is written in the
 * page's language (`language`), else the portal's default language (code-mail.ts).
 */
export async function sendSignatureCode(
  ctx: AppContext,
  access: PortalAccess,
  checkId: string,
  language: PageLanguage | undefined,
  caller: Caller,
): Promise<Action> {
  const { link } = access;
  const lang = mailLanguage(language, access.portal.default_language);
  await ctx.db.transaction().execute(async (trx) => {
    const { check } = await findSignatureAction(trx, link, checkId, true);
    const request = ongoingRequest(check, await findRequest(trx, checkId, true));
    const signer = await trx
      .selectFrom('individuals')
      .select(['first_name', 'last_name', 'email'])
      .where('id', '=', check.individual_id as string)
      .executeTakeFirstOrThrow();
    if (!signer.email) {
      throw badRequest(
        'No e-mail address is on record for the signer, so no code can be sent: ask the person who sent this link',
      );
    }
    const now = new Date();
    const capRelease = await codeCapReleaseAt(trx, checkId, now);
    if (capRelease) {
      const err = new ApiError(
        429,
        `Too many codes for this signature in 24 hours (${CODE_CAP_SENDS} sent or ${CODE_CAP_FAILURES} wrong): a new one can be sent from ${capRelease.toISOString()}`,
        undefined,
        'SIGNATURE_CODE_LIMIT_REACHED',
      );
      err.retryAfterSeconds = Math.max(1, Math.ceil((capRelease.getTime() - now.getTime()) / 1000));
      throw err;
    }
    // the minute's wait protects a live code; a code that went to a former address or through a
    // withdrawn link is dead (sign.ts), so a new one may be sent at once (walk 55)
    const deadCode = (await staleCodeReason(trx, request, signer.email, now)) !== null;
    if (
      !deadCode &&
      request.code_sent_at &&
      now.getTime() < request.code_sent_at.getTime() + CODE_RESEND_MS
    ) {
      const at = new Date(request.code_sent_at.getTime() + CODE_RESEND_MS);
      const err = new ApiError(
        429,
        `A code was sent less than a minute ago: a new one can be sent from ${at.toISOString()}`,
        undefined,
        'SIGNATURE_CODE_RESEND_TOO_SOON',
      );
      // a 429 says when to come back (RFC 9110), in whole seconds rounded up
      err.retryAfterSeconds = Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
      throw err;
    }
    const code = newCode();
    await trx
      .updateTable('signature_requests')
      .set({
        code_hash: hashCode(request.id, code),
        code_expires_at: new Date(now.getTime() + CODE_TTL_MS),
        code_attempts: 0,
        code_sent_at: now,
        code_link_id: link.id,
        code_email: signer.email,
        updated_at: now,
      })
      .where('id', '=', request.id)
      .execute();
    await recordSignatureEvent(trx, check, 'code_sent', caller, { to: emailHint(signer.email) });
    await recordContactAction(trx, link.workspace_id, link.case_id);
    const name = [signer.first_name, signer.last_name].filter(Boolean).join(' ');
    const internal = check.internal as unknown as ElectronicSignatureInternal;
    try {
      await sendMail(ctx, { to: signer.email, ...codeMail(lang, name, internal.template_name, code) });
    } catch {
      // the mail server refused or is unreachable: nothing is recorded, the signer may ask again
      throw new ApiError(
        502,
        'The code could not be sent by e-mail just now: try again in a moment',
        undefined,
        'SIGNATURE_CODE_NOT_SENT',
      );
    }
  });
  return readAction(ctx.db, link, checkId);
}
