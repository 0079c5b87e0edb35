import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { Db } from '../db/connect.ts';
import { badRequest } from '../http/errors.ts';
import { findFile, markAttached, type StoredFile, toStoredFile } from './repository.ts';
import type { FileStorage } from './storage.ts';

export type { StoredFile };
export { findFile };

/**
 * Resolves an `upload_ref` for a check being written in `trx`: the upload must belong to the
 * workspace, be unexpired and not withheld (with a deleted case), else 400 naming `fieldPath`
 * (e.g. `data.files[0].upload_ref`).
 * The upload becomes attached (its file id readable through `GET /v1/files/{id}`, never purged);
 * referencing it again, from another check, returns the same file.
 */
export async function attachUpload(
  trx: Db,
  workspaceId: string,
  uploadRef: string,
  fieldPath: string,
  now: Date = new Date(),
): Promise<StoredFile> {
  if (typeof uploadRef !== 'string' || uploadRef.length === 0 || uploadRef.length > 200) {
    throw badRequest(`${fieldPath} is not a valid upload_ref`, fieldPath);
  }
  const row = await markAttached(trx, workspaceId, uploadRef, now);
  if (row) return toStoredFile(row);
  const known = await trx
    .selectFrom('files')
    .select('expires_at')
    .where('workspace_id', '=', workspaceId)
    .where('upload_ref', '=', uploadRef)
    // a withheld upload is refused as an unknown one: nothing tells it from a reference that never was
    .where('withheld_at', 'is', null)
    .executeTakeFirst();
  throw badRequest(
    known
      ? `${fieldPath} has expired: upload the file again`
      : `${fieldPath} does not match any upload of this workspace`,
    fieldPath,
  );
}

/** The bytes of a file as a stream (providers that forward them). */
export function openFileStream(
  storage: FileStorage,
  file: Pick<StoredFile, 'storage_key'>,
): Promise<Readable> {
  return storage.get(file.storage_key);
}

/** The bytes of a file in memory (at most 20 MB; providers that parse them). */
export async function readFileBuffer(
  storage: FileStorage,
  file: Pick<StoredFile, 'storage_key'>,
): Promise<Buffer> {
  return buffer(await storage.get(file.storage_key));
}
