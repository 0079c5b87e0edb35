import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { FileRow } from '../db/schema.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
import type { FileStorage } from './storage.ts';

/** A file a check references: what providers and the download route need. */
export interface StoredFile {
  /** The file id (`GET /v1/files/{id}`). */
  id: string;
  size: number;
  mime: string;
  sha256: string;
  storage_key: string;
}

export function toStoredFile(
  row: Pick<FileRow, 'id' | 'size' | 'mime' | 'sha256' | 'storage_key'>,
): StoredFile {
  return {
    id: row.id,
    size: Number(row.size),
    mime: row.mime,
    sha256: row.sha256,
    storage_key: row.storage_key,
  };
}

/**
 * A readable file of the workspace: attached to a check. An upload nothing references yet has no
 * readable file id, an id of another workspace is not found, and neither is a file withheld with
 * the soft-deleted case(s) that alone reached it (src/cases/case-files.ts).
 */
export async function findFile(db: Db, workspaceId: string, fileId: string): Promise<StoredFile | undefined> {
  if (!UUID_RE.test(fileId)) return undefined;
  const row = await db
    .selectFrom('files')
    .select(['id', 'size', 'mime', 'sha256', 'storage_key'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', fileId)
    .where('attached_at', 'is not', null)
    .where('withheld_at', 'is', null)
    .executeTakeFirst();
  return row ? toStoredFile(row) : undefined;
}

/**
 * Marks an unexpired upload of the workspace as attached (idempotent); undefined if none matches.
 * A withheld upload (its case was deleted) matches nothing: a new reference would serve it again.
 */
export async function markAttached(trx: Db, workspaceId: string, uploadRef: string, now: Date) {
  return trx
    .updateTable('files')
    .set({ attached_at: sql`coalesce(attached_at, ${now})` })
    .where('workspace_id', '=', workspaceId)
    .where('upload_ref', '=', uploadRef)
    .where('expires_at', '>', now)
    .where('withheld_at', 'is', null)
    .returning(['id', 'size', 'mime', 'sha256', 'storage_key'])
    .executeTakeFirst();
}

/**
 * Removes an upload no check references yet (its row, then its bytes): an upload refused after it
 * was stored, e.g. for a form part besides its file. Returns whether it was there.
 */
export async function discardUpload(
  db: Db,
  storage: FileStorage,
  workspaceId: string,
  uploadRef: string,
): Promise<boolean> {
  const row = await db
    .deleteFrom('files')
    .where('workspace_id', '=', workspaceId)
    .where('upload_ref', '=', uploadRef)
    .where('attached_at', 'is', null)
    .returning('storage_key')
    .executeTakeFirst();
  if (row) await storage.delete(row.storage_key).catch(() => {});
  return row !== undefined;
}
