import { createHash, timingSafeEqual } from 'node:crypto';
import type { Static } from 'typebox';
import type { AppContext } from '../../../app-context.ts';
import type { CheckRow, SignatureRequestRow } from '../../../db/schema.ts';
import { transactionNow } from '../../../db/transaction-now.ts';
import { readFileBuffer } from '../../../files/attach-upload.ts';
import {
  discardGeneratedFile,
  type GeneratedFile,
  storeGeneratedFile,
} from '../../../files/generated-file.ts';
import { getStorage } from '../../../files/storage.ts';
import { badRequest } from '../../../http/errors.ts';
import { type Action, readAction } from '../../../portal/actions.ts';
import type { PortalAccess } from '../../../portal/auth.ts';
import { recordContactAction } from '../../../portal/contact-action.ts';
import { applyOutcome } from '../../engine/apply-change.ts';
import { reviewNeeded } from '../../review-data.ts';
import { findSignatureAction, ongoingRequest } from './active.ts';
import { type Caller, recordSignatureEvent, signatureEventsOf } from './audit.ts';
import type { ElectronicSignatureInternal, ElectronicSignatureSettings } from './check-data.ts';
import { mailLanguage } from './code-mail.ts';
import { auditTrailPdf, signaturePngProblem, signingIdentity, signPdf } from './deps.ts';
import { CODE_MAX_ATTEMPTS, findRequest, hashCode } from './requests.ts';
import type { SignBody } from './schemas.ts';
import { type SignatureTexts, signatureTexts } from './signature-texts.ts';
import { typedNameMatches, writtenName } from './typed-name.ts';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MAX_DRAWN_BYTES = 1024 * 1024;

/** The signature as given: a typed name or a drawn PNG, exactly one; 400 naming the field otherwise. */
function signatureOf(body: Static<typeof SignBody>): { typed: string | null; drawn: Buffer | null } {
  if (body.agreed !== true) {
    throw badRequest('agreed must be true: the signer must read and agree to the document', 'agreed');
  }
  const typed = body.typed_name?.trim() || null;
  const drawnB64 = body.drawn_signature_png_base64;
  if (typed && drawnB64) {
    throw badRequest('Give either typed_name or drawn_signature_png_base64, not both', 'typed_name');
  }
  if (!typed && !drawnB64) {
    throw badRequest('A signature is needed: typed_name or drawn_signature_png_base64', 'typed_name');
  }
  if (!drawnB64) return { typed, drawn: null };
  const b64 = drawnB64.replace(/^data:image\/png;base64,/, '');
  const drawn = /^[A-Za-z0-9+/]+={0,2}$/.test(b64) ? Buffer.from(b64, 'base64') : null;
  if (!drawn || drawn.length > MAX_DRAWN_BYTES || !drawn.subarray(0, 8).equals(PNG_MAGIC)) {
    throw badRequest(
      'drawn_signature_png_base64 must be a PNG image of at most 1 MB, base64-encoded',
      'drawn_signature_png_base64',
    );
  }
  // a damaged PNG, or one declaring a huge image in a few bytes, is the caller's mistake: 400, not 500
  const problem = signaturePngProblem(drawn);
  if (problem) throw badRequest(`drawn_signature_png_base64: ${problem}`, 'drawn_signature_png_base64');
  return { typed: null, drawn };
}

/**
 * A refused code `spends` one of the code's tries (and is recorded as `code_failed`) only while the
 * code is live with tries left: with no code sent, a spent one or an expired one, there is nothing
 * to guess, so the refusal is only answered, never recorded (the audit trail holds at most
 * CODE_MAX_ATTEMPTS per code). An expired code is refused as expired whatever is submitted.
 */
type CodeCheck = { ok: true } | { ok: false; message: string; spends: boolean };

/** Compares the code with the stored hash. Never reveals anything but the count left. */
function checkCode(request: SignatureRequestRow, code: string, now: Date): CodeCheck {
  if (!request.code_hash || !request.code_expires_at) {
    return { ok: false, message: 'No code was sent yet: ask for a code first', spends: false };
  }
  if (request.code_attempts >= CODE_MAX_ATTEMPTS) {
    return { ok: false, message: 'Too many wrong codes: ask for a new code', spends: false };
  }
  if (request.code_expires_at.getTime() <= now.getTime()) {
    return { ok: false, message: 'The code has expired: ask for a new code', spends: false };
  }
  const given = Buffer.from(hashCode(request.id, code.trim()), 'hex');
  const stored = Buffer.from(request.code_hash, 'hex');
  if (given.length === stored.length && timingSafeEqual(given, stored)) return { ok: true };
  const left = CODE_MAX_ATTEMPTS - request.code_attempts - 1;
  return {
    ok: false,
    message:
      left > 0
        ? `The code is wrong: ${left} attempt${left === 1 ? '' : 's'} left`
        : 'The code is wrong and no attempt is left: ask for a new code',
    spends: true,
  };
}

/** Addresses compared as a mailbox is: case and surrounding spaces do not make another one. */
const mailbox = (email: string | null) => email?.trim().toLowerCase() || null;

/**
 * A code lives only as long as what it was sent through: the portal link it was asked on (withdrawn
 * when the signer's e-mail changes, the signer is set not relevant, or a link replaces it; or
 * expired) and the address it went to. Such a code is refused without spending a try: the person
 * holding it did nothing wrong, the code is simply no longer theirs to use. Codes sent before the
 * binding existed (null) keep the old rule until they expire.
 */
export async function staleCodeReason(
  db: Parameters<typeof signatureEventsOf>[0],
  request: SignatureRequestRow,
  email: string | null,
  now: Date,
): Promise<string | null> {
  if (!request.code_hash) return null;
  if (request.code_email !== null && mailbox(request.code_email) !== mailbox(email)) {
    return "The code was sent to an e-mail address that is no longer the signer's: ask for a new code";
  }
  if (request.code_link_id === null) return null;
  const link = await db
    .selectFrom('client_portal_links')
    .select(['revoked_at', 'expires_at'])
    .where('id', '=', request.code_link_id)
    .executeTakeFirst();
  if (!link || link.revoked_at || link.expires_at.getTime() <= now.getTime()) {
    return 'The code was asked for through a link that has since been withdrawn: ask for a new code';
  }
  return null;
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Signs the frozen document and builds the audit trail; both stored (recorded by the caller's outcome). */
async function produceFiles(
  ctx: AppContext,
  trx: Parameters<typeof signatureEventsOf>[0],
  check: CheckRow,
  request: SignatureRequestRow,
  signer: { name: string; email: string },
  signature: { typed: string | null; drawn: Buffer | null },
  signedAt: Date,
  caller: Caller,
  stored: GeneratedFile[],
  texts: SignatureTexts,
): Promise<{ signed: GeneratedFile; audit: GeneratedFile }> {
  const storage = getStorage(ctx);
  const frozen = await readFileBuffer(storage, { storage_key: await storageKeyOf(trx, request) });
  const internal = check.internal as unknown as ElectronicSignatureInternal;
  const signedPdf = await signPdf(ctx, frozen, {
    signerName: signer.name,
    signerEmail: signer.email,
    signedAt,
    reason: texts.reason(internal.template_name),
    drawnSignaturePng: signature.drawn,
    typedSignature: signature.typed,
    labels: texts.labels,
  });
  const signed = await storeGeneratedFile(storage, check.workspace_id, signedPdf, 'application/pdf');
  stored.push(signed);
  await recordSignatureEvent(
    trx,
    check,
    'signed',
    caller,
    {
      method: signature.typed ? 'typed' : 'drawn',
      ...(signature.typed ? { typed_name: signature.typed } : {}),
      document_sha256: request.document_sha256,
      signed_sha256: signed.sha256,
    },
    signedAt,
  );
  const events = await signatureEventsOf(trx, check.id);
  const auditPdf = await auditTrailPdf(ctx, {
    title: internal.template_name,
    signer,
    events: events.map((e) => ({
      at: e.at,
      type: e.type,
      ip: e.ip,
      user_agent: e.user_agent,
      details: e.details,
    })),
    documentSha256: request.document_sha256,
    signedSha256: sha256(signedPdf),
  });
  const audit = await storeGeneratedFile(storage, check.workspace_id, auditPdf, 'application/pdf');
  stored.push(audit);
  return { signed, audit };
}

async function storageKeyOf(db: Parameters<typeof signatureEventsOf>[0], request: SignatureRequestRow) {
  const file = await db
    .selectFrom('files')
    .select('storage_key')
    .where('id', '=', request.document_file_id)
    .executeTakeFirstOrThrow();
  return file.storage_key;
}

/**
 * `POST /portal/api/actions/{id}/signature/sign`: verifies the one-time code, signs the frozen
 * document (visible block + PDF signature), builds the audit trail, stores both and completes the
 * check (approved with automatic_approval, else need_review), all in one transaction under the
 * check's lock: of two submissions one signs, the other gets 409. A wrong code is counted (in its
 * own committed transaction, with its code_failed audit event, and nothing on the case) and
 * answered 400 naming `code`; once the code's tries are spent or it has expired (or before any code
 * was sent) the 400 is all: nothing is counted or recorded.
 */
export async function signSignature(
  ctx: AppContext,
  access: PortalAccess,
  checkId: string,
  body: Static<typeof SignBody>,
  caller: Caller,
): Promise<Action> {
  const { link } = access;
  const signature = signatureOf(body);
  // the signed document speaks the page's language, as the code's mail does (code-mail.ts)
  const texts = signatureTexts(mailLanguage(body.language, access.portal.default_language));
  // what cannot be a code (`12`) is a typing slip, not a guess: refused without spending a try
  if (!/^\d{6}$/.test(body.code.trim())) throw badRequest('code must be the 6 digits sent by e-mail', 'code');
  // loaded (or generated and stored) before the transaction: that first use writes through its own
  // connection, which the embedded database (one connection) would only give after this transaction
  await signingIdentity(ctx);
  const stored: GeneratedFile[] = [];
  let refusal: string | null = null;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const { check, def } = await findSignatureAction(trx, link, checkId, true);
      const request = ongoingRequest(check, await findRequest(trx, checkId, true));
      const person = await trx
        .selectFrom('individuals')
        .select(['first_name', 'middle_name', 'last_name', 'email'])
        .where('id', '=', check.individual_id as string)
        .executeTakeFirstOrThrow();
      const signerName = writtenName(person);
      // refused before the code is looked at: a name typed wrong spends none of the code's tries
      if (signature.typed && !typedNameMatches(signature.typed, person)) {
        throw badRequest(
          `typed_name must be the signer's name as on record (${signerName}), or sign by drawing`,
          'typed_name',
        );
      }
      // one instant for all this writes: the transaction's, which stamps the check's and the case's
      // updated_at (now()); a clock read here left updated_at a few ms before review.reviewed_at and
      // vendor.ended_at. The code's validity is judged by the clock as it is now (a wait for the
      // check's lock does not extend it).
      const now = await transactionNow(trx);
      const checkedAt = new Date();
      const stale = await staleCodeReason(trx, request, person.email, checkedAt);
      const verdict: CodeCheck = stale
        ? { ok: false, message: stale, spends: false }
        : checkCode(request, body.code, checkedAt);
      if (!verdict.ok) {
        // a spent or expired code (or none sent) is refused without a write: retrying it, however often the
        // link's rate limit allows, adds nothing to the audit trail (sending a new code restores the tries)
        if (verdict.spends) {
          await trx
            .updateTable('signature_requests')
            .set({ code_attempts: request.code_attempts + 1, updated_at: now })
            .where('id', '=', request.id)
            .execute();
          await recordSignatureEvent(trx, check, 'code_failed', caller, { reason: verdict.message });
        }
        // not a contact action: a refused code changes nothing the case's API shows (the check stays
        // in_progress, even once the code is spent), so it moves no case date and records no
        // Case.Updated (a webhook per guess). The audit trail's code_failed is its record.
        refusal = verdict.message;
        return;
      }
      await recordSignatureEvent(trx, check, 'code_verified', caller, {}, now);
      // the evidence (the signature block, the audit trail) names the signer in full, the middle
      // name included: the name on record, whichever form of it was typed
      const fullName = [person.first_name, person.middle_name, person.last_name].filter(Boolean).join(' ');
      const signer = { name: fullName, email: person.email ?? '' };
      const { signed, audit } = await produceFiles(
        ctx,
        trx,
        check,
        request,
        signer,
        signature,
        now,
        caller,
        stored,
        texts,
      );
      await trx
        .updateTable('signature_requests')
        .set({ status: 'signed', signed_at: now, code_verified_at: now, code_hash: null, updated_at: now })
        .where('id', '=', request.id)
        .execute();
      await recordContactAction(trx, link.workspace_id, link.case_id);
      const settings = (check.data as { settings: ElectronicSignatureSettings }).settings;
      const data = check.data as Record<string, unknown>;
      const approved = settings.automatic_approval;
      await applyOutcome(ctx, trx, def, check, {
        trigger: 'sign',
        status: approved ? 'approved' : 'need_review',
        data: {
          ...data,
          result: approved ? 'approved' : null,
          vendor: {
            ...(data.vendor as Record<string, unknown>),
            status: 'done',
            ended_at: now.toISOString(),
          },
          information: {
            file_id: request.document_file_id,
            signed_file_id: signed.id,
            audit_trail_id: audit.id,
          },
          review: approved
            ? {
                comment:
                  'Approved automatically: the signer signed with a valid one-time code (automatic_approval)',
                reviewed_at: now.toISOString(),
                reviewer_type: 'system',
                user: null,
              }
            : reviewNeeded(
                'the signer signed with a valid one-time code; a person confirms the signature',
                'automatic_approval',
              ),
        },
        generatedFiles: [signed, audit],
      });
    });
  } catch (err) {
    for (const f of stored) await discardGeneratedFile(getStorage(ctx), f);
    throw err;
  }
  if (refusal) throw badRequest(refusal, 'code');
  return readAction(ctx.db, link, checkId);
}
