import { randomUUID } from 'node:crypto';
import type { AppContext } from '../app-context.ts';
import { mismatchedContentType } from '../files/declared-type.ts';
import { TooManyPixels } from '../files/image-pixels.ts';
import { type FileUpload, unknownPart } from '../files/read-file-part.ts';
import { discardUpload } from '../files/repository.ts';
import { getStorage } from '../files/storage.ts';
import { uploadFile } from '../files/upload-file.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import {
  type Action,
  assertAccepting,
  findShown,
  pendingFilesOf,
  readAction,
  type Shown,
  slotOf,
} from './actions.ts';
import type { PortalAccess } from './auth.ts';
import { recordContactAction } from './contact-action.ts';
import { dropPendingFiles, keepUploadUntil } from './pending-files.ts';
import type { PortalSlot } from './portal-action.ts';

/** Longest file name kept (the page shows it back; the bytes are stored under their own id). */
const MAX_NAME = 255;

/** The part's file name as shown back: no control characters (NUL cannot be stored), bounded. */
function displayName(filename: string | undefined): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const clean = (filename ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean.slice(0, MAX_NAME) || 'file';
}

/** 400 when the slot has no room left; a single-file slot is replaced instead. */
function assertRoom(slot: PortalSlot, inSlot: number): void {
  if (slot.max_files > 1 && inSlot >= slot.max_files) {
    throw badRequest(
      `slot ${slot.key} already holds ${slot.max_files} files, its maximum: remove one first`,
      'slot',
    );
  }
}

/**
 * The portal answers a file it cannot take as a 400 naming `file`, whatever the upload path's status,
 * saying what the slot takes (the upload path's message lists every format it knows, HEIC or TIFF
 * included, which no slot takes). A file of a format the slot takes, under a name or type that says
 * another (a PDF named x.png), is told so instead, with the code FILE_NAME_MISMATCH: the page then
 * asks for a rename rather than for the very format the file already is. An image over the pixel
 * limit stays a 413, with the code IMAGE_TOO_MANY_PIXELS.
 */
function asBadFile(err: unknown, slot: PortalSlot): unknown {
  // an image (or a PDF's image) over the pixel limit: a 413 as on /v1/files/upload, with a code of
  // its own, so the page does not say the file is over 20 MB (a small file can be a huge image)
  if (err instanceof TooManyPixels)
    return new ApiError(413, err.message, err.details, 'IMAGE_TOO_MANY_PIXELS');
  if (err instanceof ApiError && err.statusCode === 415) {
    const content = mismatchedContentType(err);
    if (content && slotTakes(slot, content)) {
      const message = `${err.message} (slot ${slot.key} takes ${slot.accept})`;
      return new ApiError(400, message, [{ path: 'file', message }], 'FILE_NAME_MISMATCH');
    }
    const message = `file format is not accepted: slot ${slot.key} takes ${slot.accept}`;
    return new ApiError(400, message, [{ path: 'file', message }]);
  }
  return err;
}

function slotTakes(slot: PortalSlot, mime: string): boolean {
  return slot.accept.split(',').some((type) => type.trim() === mime);
}

async function slotRoomBefore(ctx: AppContext, access: PortalAccess, checkId: string, slotKey: string) {
  const shown = await findShown(ctx.db, access.link, checkId, false);
  assertAccepting(shown.check);
  const slot = slotOf(shown, slotKey);
  const pending = await pendingFilesOf(ctx.db, [checkId]);
  assertRoom(slot, pending.filter((p) => p.slot === slot.key).length);
  return slot;
}

/**
 * `POST /portal/api/actions/{id}/files?slot=...`: stores the file at once through the files
 * module's upload path (same 20 MB limit, content sniffing, declared-type and image-size checks),
 * refuses a format the slot does not accept, and keeps it as a pending file of the check so the
 * step survives closing the page. The action, its state and the slot are checked before the bytes
 * are read and again, locked, when the pending file is recorded (a concurrent submit or upload),
 * with the link itself (a contact who left, a case deleted, while the file came in).
 */
export async function uploadPendingFile(
  ctx: AppContext,
  access: PortalAccess,
  checkId: string,
  slotKey: string,
  { part, otherParts, bodyBytes }: FileUpload,
): Promise<Action> {
  const { link } = access;
  let slot: PortalSlot;
  try {
    slot = await slotRoomBefore(ctx, access, checkId, slotKey);
  } catch (err) {
    part.file.resume(); // the body is not wanted: let it drain
    throw err;
  }
  const storage = getStorage(ctx);
  const { upload_ref } = await uploadFile(ctx.db, storage, link.workspace_id, part.file, {
    declared: { filename: part.filename, mimetype: part.mimetype },
    maxImagePixels: ctx.config.maxImagePixels,
    acceptVideo: slot.accept.split(',').some((t) => t.startsWith('video/')),
    bodyBytes,
  }).catch((err) => {
    throw asBadFile(err, slot);
  });
  // the form is the file and nothing else, as for /v1/files/upload: a second file or a field
  // after it is known only once the file is read, and is refused rather than silently dropped
  const others = await otherParts().catch(async (err) => {
    await discardUpload(ctx.db, storage, link.workspace_id, upload_ref);
    throw err;
  });
  if (others.length) {
    await discardUpload(ctx.db, storage, link.workspace_id, upload_ref);
    throw unknownPart(others[0]);
  }
  const file = await ctx.db
    .selectFrom('files')
    .select(['id', 'mime', 'size', 'storage_key'])
    .where('workspace_id', '=', link.workspace_id)
    .where('upload_ref', '=', upload_ref)
    .executeTakeFirstOrThrow();
  if (!slot.accept.split(',').includes(file.mime)) {
    await ctx.db.deleteFrom('files').where('id', '=', file.id).execute();
    await storage.delete(file.storage_key).catch(() => {});
    const message = `file must be one of ${slot.accept} for slot ${slot.key}; this one is ${file.mime}`;
    throw new ApiError(400, message, [{ path: 'file', message }]);
  }

  // refused when recorded (the link withdrawn or the case deleted while the bytes came in, the step
  // submitted meanwhile...): the stored upload goes at once rather than lingering until the purge
  const recorded = ctx.db.transaction().execute(async (trx) => {
    // first: the link, re-checked under lock (a write the link's withdrawal did not see is refused)
    const shown: Shown = await findShown(trx, link, checkId, true);
    assertAccepting(shown.check);
    const lockedSlot = slotOf(shown, slot.key);
    const inSlot = (await pendingFilesOf(trx, [checkId])).filter((p) => p.slot === lockedSlot.key);
    assertRoom(lockedSlot, inSlot.length);
    if (lockedSlot.max_files === 1) {
      await dropPendingFiles(
        trx,
        checkId,
        inSlot.map((p) => p.id),
      );
    }
    await trx
      .insertInto('client_portal_pending_files')
      .values({
        id: randomUUID(),
        workspace_id: link.workspace_id,
        check_id: checkId,
        slot: lockedSlot.key,
        file_id: file.id,
        upload_ref,
        file_name: displayName(part.filename),
        size: Number(file.size),
      })
      .execute();
    await keepUploadUntil(trx, file.id, link.expires_at);
    await recordContactAction(trx, link.workspace_id, link.case_id);
  });
  await recorded.catch(async (err) => {
    await discardUpload(ctx.db, storage, link.workspace_id, upload_ref);
    throw err;
  });
  return readAction(ctx.db, link, checkId);
}
