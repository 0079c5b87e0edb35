import type { AppContext } from '../../../app-context.ts';
import { readFileBuffer } from '../../../files/attach-upload.ts';
import { getStorage } from '../../../files/storage.ts';
import { notFound } from '../../../http/errors.ts';
import type { PortalAccess } from '../../../portal/auth.ts';
import { findSignatureAction } from './active.ts';
import { type DocumentParts, documentParts } from './document-parts.ts';
import { findRequest } from './requests.ts';

async function fileBytes(ctx: AppContext, workspaceId: string, fileId: string): Promise<Buffer> {
  const file = await ctx.db
    .selectFrom('files')
    .select('storage_key')
    .where('id', '=', fileId)
    .where('workspace_id', '=', workspaceId)
    .where('withheld_at', 'is', null)
    .executeTakeFirst();
  if (!file) throw notFound('Document');
  return readFileBuffer(getStorage(ctx), file);
}

/** The request of an action the link shows; 404 before it started. */
async function requestOf(ctx: AppContext, access: PortalAccess, checkId: string) {
  const { check } = await findSignatureAction(ctx.db, access.link, checkId, false);
  const request = await findRequest(ctx.db, checkId);
  if (!request) throw notFound('Document');
  return { check, request };
}

/** The frozen document, as a PDF. */
export async function frozenPdf(ctx: AppContext, access: PortalAccess, checkId: string): Promise<Buffer> {
  const { check, request } = await requestOf(ctx, access, checkId);
  return fileBytes(ctx, check.workspace_id, request.document_file_id);
}

/** The frozen document's HTML (shown by the page in a sandboxed frame). */
export async function frozenHtml(ctx: AppContext, access: PortalAccess, checkId: string): Promise<string> {
  return (await requestOf(ctx, access, checkId)).request.document_html;
}

/** The frozen HTML with its styles taken out, for the portal page (document-parts.ts says why). */
export async function frozenDocumentParts(
  ctx: AppContext,
  access: PortalAccess,
  checkId: string,
): Promise<DocumentParts> {
  return documentParts(await frozenHtml(ctx, access, checkId));
}

/** The signed PDF, once signed (404 before). */
export async function signedPdf(ctx: AppContext, access: PortalAccess, checkId: string): Promise<Buffer> {
  const { check, request } = await requestOf(ctx, access, checkId);
  const info = (check.data as { information?: { signed_file_id?: string | null } }).information;
  if (request.status !== 'signed' || !info?.signed_file_id) throw notFound('Signed document');
  return fileBytes(ctx, check.workspace_id, info.signed_file_id);
}
