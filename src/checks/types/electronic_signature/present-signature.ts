import type { Static } from 'typebox';
import type { Db } from '../../../db/connect.ts';
import type { CheckRow, SignatureRequestRow } from '../../../db/schema.ts';
import type { ElectronicSignatureInternal } from './check-data.ts';
import { CODE_MAX_ATTEMPTS, CODE_RESEND_MS, codeCapReleaseAt, findRequest } from './requests.ts';
import type { SignatureOut } from './schemas.ts';
import { staleCodeReason } from './sign.ts';
import { writtenName } from './typed-name.ts';

type Signature = Static<typeof SignatureOut>;

/** `ada@example.com` → `a***@example.com`: enough for the signer to recognise it, little for anyone else. */
export function emailHint(email: string | null): string | null {
  if (!email) return null;
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email[0]}***${email.slice(at)}`;
}

const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * Where the signature stands for the signer: `ended` once the check was decided without them (an
 * operator's review, an expiry): nothing is left to sign.
 */
function statusOf(request: SignatureRequestRow | undefined, check: CheckRow): Signature['status'] {
  if (request?.status === 'signed') return 'signed';
  if (request?.status === 'declined') return 'declined';
  if (request?.status === 'cancelled' || DECIDED.has(check.status)) return 'ended';
  if (!request) return 'not_started';
  return 'ongoing';
}
const DECIDED = new Set(['approved', 'rejected', 'expired']);

/**
 * When a new code can be asked for: a minute after the last one, or later while the daily cap
 * holds (requests.ts); null when one can be asked for now and none was ever sent. A dead code (sent
 * to a former address or through a withdrawn link) holds no wait: send-code.ts sends a new one at once.
 */
async function resendAvailableAt(
  db: Db,
  request: SignatureRequestRow,
  deadCode: boolean,
): Promise<string | null> {
  const cap = request.code_sent_at ? await codeCapReleaseAt(db, request.check_id, new Date()) : null;
  const resend = request.code_sent_at && !deadCode ? request.code_sent_at.getTime() + CODE_RESEND_MS : null;
  const at = Math.max(cap?.getTime() ?? 0, resend ?? 0);
  return at ? new Date(at).toISOString() : null;
}

/** The `signature` block of the portal's Action for an electronic_signature check. */
export async function presentSignature(db: Db, check: CheckRow): Promise<Signature> {
  const request = await findRequest(db, check.id);
  const signer = await db
    .selectFrom('individuals')
    .select(['first_name', 'last_name', 'email'])
    .where('id', '=', check.individual_id as string)
    .executeTakeFirst();
  const internal = check.internal as unknown as ElectronicSignatureInternal;
  const base = `/portal/api/actions/${check.id}/signature`;
  const started = !!request;
  const live = request?.status === 'ongoing';
  // a code that can no longer sign (sign.ts refuses it) is shown as never sent: the page offers a
  // new one at once rather than a code field and tries that would only be refused
  const deadCode =
    live &&
    !!request.code_hash &&
    (await staleCodeReason(db, request, signer?.email ?? null, new Date())) !== null;
  const codeLive = live && !!request.code_hash && !deadCode;
  const data = check.data as {
    review?: { comment?: string | null; reviewer_type?: string | null };
    vendor?: { decline_reason?: string | null };
  };
  // the signer's words; a check declined before they were kept apart has them as its system review
  const declineReason =
    data.vendor?.decline_reason ??
    (data.review?.reviewer_type === 'system' ? (data.review.comment ?? null) : null);
  return {
    status: statusOf(request, check),
    document_name: internal.template_name,
    document_sha256: request?.document_sha256 ?? null,
    document_pages: request?.document_pages ?? null,
    document_url: started ? `${base}/document` : null,
    document_html_url: started ? `${base}/document.html` : null,
    signed_document_url: request?.status === 'signed' ? `${base}/signed-document` : null,
    signer: {
      // as the name is written (`王小明`), the page's hint of what to type
      name: signer ? writtenName(signer) : '',
      email_hint: emailHint(signer?.email ?? null),
    },
    code: {
      sent_at: codeLive ? isoOrNull(request.code_sent_at) : null,
      expires_at: codeLive ? isoOrNull(request.code_expires_at) : null,
      attempts_left: codeLive ? Math.max(0, CODE_MAX_ATTEMPTS - request.code_attempts) : CODE_MAX_ATTEMPTS,
      resend_available_at: live ? await resendAvailableAt(db, request, deadCode) : null,
    },
    signed_at: isoOrNull(request?.signed_at ?? null),
    declined_at: isoOrNull(request?.declined_at ?? null),
    decline_reason: request?.status === 'declined' ? declineReason : null,
  };
}
