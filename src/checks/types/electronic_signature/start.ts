import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../../app-context.ts';
import { issueLink, linkExpiry } from '../../../client-portals/links.ts';
import type { Db } from '../../../db/connect.ts';
import type { CheckRow, SignatureRequestRow } from '../../../db/schema.ts';
import { transactionNow } from '../../../db/transaction-now.ts';
import {
  discardGeneratedFile,
  type GeneratedFile,
  recordGeneratedFile,
  storeGeneratedFile,
} from '../../../files/generated-file.ts';
import { getStorage } from '../../../files/storage.ts';
import { badRequest } from '../../../http/errors.ts';
import type { Action } from '../../../portal/actions.ts';
import { readAction } from '../../../portal/actions.ts';
import type { PortalAccess } from '../../../portal/auth.ts';
import { recordContactAction } from '../../../portal/contact-action.ts';
import { updateCheckData } from '../../engine/apply-change.ts';
import { findSignatureAction } from './active.ts';
import { type Caller, recordSignatureEvent } from './audit.ts';
import type { ElectronicSignatureSettings } from './check-data.ts';
import { publishedVersionOf, renderForCase } from './deps.ts';
import { findRequest } from './requests.ts';

interface Frozen {
  file: GeneratedFile;
  html: string;
  pages: number;
  missing: string[];
  versionId: string;
  versionNumber: number;
}

/** Renders the template's latest published version with the case's data as it is now, and stores the PDF. */
async function renderAndStore(ctx: AppContext, check: CheckRow): Promise<Frozen> {
  const settings = (check.data as { settings: ElectronicSignatureSettings }).settings;
  const found = await publishedVersionOf(
    ctx.db,
    check.workspace_id,
    settings.document_template_key,
    'electronic_signature',
  );
  if (!found.ok) throw badRequest(`The document cannot be prepared: ${found.reason}`);
  const rendered = await renderForCase(ctx, ctx.db, {
    workspaceId: check.workspace_id,
    caseId: check.case_id,
    version: found.version,
    signerIndividualId: check.individual_id,
    title: found.template.name,
  });
  const file = await storeGeneratedFile(getStorage(ctx), check.workspace_id, rendered.pdf, 'application/pdf');
  return {
    file,
    html: rendered.html,
    pages: rendered.pages,
    missing: rendered.missing,
    versionId: found.version.id,
    versionNumber: found.version.number,
  };
}

/** Whether the request's signature link still opens the portal. */
async function linkIsLive(db: Db, request: SignatureRequestRow): Promise<boolean> {
  if (!request.link_id) return false;
  const link = await db
    .selectFrom('client_portal_links')
    .select(['expires_at', 'revoked_at'])
    .where('id', '=', request.link_id)
    .executeTakeFirst();
  return !!link && !link.revoked_at && link.expires_at.getTime() > Date.now();
}

/** Issues the request's check-scoped portal link and writes it to data.vendor (with `vendor` changes). */
async function issueSignatureLink(
  ctx: AppContext,
  trx: Db,
  check: CheckRow,
  requestId: string,
  caller: Caller,
  vendor: Record<string, unknown> = {},
): Promise<CheckRow> {
  const link = await issueLink(trx, ctx, {
    workspaceId: check.workspace_id,
    caseId: check.case_id,
    individualId: check.individual_id as string,
    checkId: check.id,
    expiresAt: linkExpiry(ctx),
  });
  await trx.updateTable('signature_requests').set({ link_id: link.id }).where('id', '=', requestId).execute();
  await recordSignatureEvent(trx, check, 'link_issued', caller, { expires_at: link.expiresAt.toISOString() });
  const data = check.data as Record<string, unknown>;
  return updateCheckData(trx, check, {
    ...data,
    vendor: {
      ...(data.vendor as Record<string, unknown>),
      ...vendor,
      signature_link: link.url,
      signature_link_expiration_date: link.expiresAt.toISOString(),
    },
  });
}

/**
 * `POST /portal/api/actions/{id}/signature/start`: the signer reached the document. The first call
 * renders and freezes it (the PDF stored as a file, its SHA-256 and HTML kept), opens the request
 * and issues its check-scoped link (data.vendor.signature_link); a later call only issues a new
 * link when the previous one expired or was revoked. A call that did either records `opened` and is
 * a contact action (Case.Updated); any other call (the page loads it on every visit) writes and
 * records nothing, so reloading the page sends no webhook and leaves the audit trail as it was.
 * Rendering (Chromium) runs before the transaction; a concurrent first call that lost the race
 * drops its rendering and uses the winner's (and, having changed nothing, records nothing).
 */
export async function startSignature(
  ctx: AppContext,
  access: PortalAccess,
  checkId: string,
  caller: Caller,
): Promise<Action> {
  const { link } = access;
  const first = await findSignatureAction(ctx.db, link, checkId, false);
  let frozen: Frozen | null = null;
  if (!(await findRequest(ctx.db, checkId))) {
    if (first.check.status !== 'in_progress') {
      throw badRequest(`This signature can no longer be started: the check is ${first.check.status}`);
    }
    frozen = await renderAndStore(ctx, first.check);
  }
  let used = false;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const { check } = await findSignatureAction(trx, link, checkId, true);
      const request = await findRequest(trx, checkId, true);
      if (!request) {
        if (check.status !== 'in_progress' || !frozen) {
          throw badRequest(`This signature can no longer be started: the check is ${check.status}`);
        }
        const f: Frozen = frozen;
        await recordGeneratedFile(trx, f.file, check.case_id);
        used = true;
        const id = randomUUID();
        await trx
          .insertInto('signature_requests')
          .values({
            id,
            workspace_id: check.workspace_id,
            check_id: check.id,
            template_version_id: f.versionId,
            document_file_id: f.file.id,
            document_sha256: f.file.sha256,
            document_html: f.html,
            document_pages: f.pages,
            status: 'ongoing',
          })
          .execute();
        await recordSignatureEvent(trx, check, 'request_started', caller, {
          document_sha256: f.file.sha256,
          template_version: f.versionNumber,
          pages: f.pages,
          missing_placeholders: f.missing,
        });
        await issueSignatureLink(ctx, trx, check, id, caller, {
          status: 'ongoing',
          signature_request_ref: id,
          signer_ref: check.individual_id,
          document_ref: `sha256:${f.file.sha256}`,
          // the transaction's instant, as the check's updated_at (now()) has it
          started_at: (await transactionNow(trx)).toISOString(),
        });
      } else if (
        request.status === 'ongoing' &&
        check.status === 'in_progress' &&
        !(await linkIsLive(trx, request))
      ) {
        // the link the operator saw expired: a visit through another live link issues a new one
        await issueSignatureLink(ctx, trx, check, request.id, caller);
      } else {
        // nothing changed (a reload of the page, or a request that already ended): nothing to record
        return;
      }
      await recordSignatureEvent(trx, check, 'opened', caller);
      await recordContactAction(trx, link.workspace_id, link.case_id);
    });
  } finally {
    if (frozen && !used) await discardGeneratedFile(getStorage(ctx), frozen.file);
  }
  return readAction(ctx.db, link, checkId);
}
