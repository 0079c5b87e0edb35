import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '../db/connect.ts';
import { type FileStorage, storageKeyFor } from './storage.ts';
import { MAX_UPLOAD_BYTES, newUploadRef } from './upload-file.ts';

/** A file the service produced itself (a registry extract...), stored but not yet recorded. */
export interface GeneratedFile {
  id: string;
  workspaceId: string;
  storageKey: string;
  size: number;
  mime: string;
  sha256: string;
}

/**
 * Stores bytes the service made as a new file of the workspace. The caller records it with
 * `recordGeneratedFile` in the transaction that references it, or drops it with
 * `discardGeneratedFile` when that transaction does not happen.
 */
export async function storeGeneratedFile(
  storage: FileStorage,
  workspaceId: string,
  bytes: Buffer,
  mime: string,
): Promise<GeneratedFile> {
  const id = randomUUID();
  const storageKey = storageKeyFor(workspaceId, id);
  const { size } = await storage.put(storageKey, Readable.from([bytes]), MAX_UPLOAD_BYTES);
  return {
    id,
    workspaceId,
    storageKey,
    size,
    mime,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/**
 * The file's row: attached from the start (something references it), so it is readable with
 * `GET /v1/files/{id}` by its workspace only and never purged as an expired upload. Its upload_ref
 * is never handed out. `caseId` is the case the file belongs to: a file produced for a case soft
 * deleted meanwhile (a report, a registry document or a check's file whose job finished after the
 * deletion) is recorded withheld, as the deletion withheld the case's other files. The case row is
 * locked as a write to the case locks it (`lockCase`), so a concurrent deletion either sees this
 * file (and withholds it) or has committed before the row is read here.
 */
export async function recordGeneratedFile(
  trx: Db,
  file: GeneratedFile,
  caseId: string,
  now = new Date(),
): Promise<void> {
  const kase = await trx
    .selectFrom('cases')
    .select('deleted_at')
    .where('id', '=', caseId)
    .forNoKeyUpdate()
    .executeTakeFirst();
  await trx
    .insertInto('files')
    .values({
      id: file.id,
      workspace_id: file.workspaceId,
      upload_ref: newUploadRef(),
      storage_key: file.storageKey,
      size: file.size,
      mime: file.mime,
      sha256: file.sha256,
      created_at: now,
      expires_at: now,
      attached_at: now,
      withheld_at: kase?.deleted_at ? now : null,
    })
    .execute();
}

export async function discardGeneratedFile(storage: FileStorage, file: GeneratedFile): Promise<void> {
  await storage.delete(file.storageKey).catch(() => {});
}
