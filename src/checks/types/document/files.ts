import type { Db } from '../../../db/connect.ts';
import { attachUpload, type StoredFile } from '../../../files/attach-upload.ts';

/** Attaches uploads in order (400 naming `<prefix>[i].upload_ref` when unknown or expired); one entry per file. */
export async function attachFiles(
  trx: Db,
  workspaceId: string,
  files: { upload_ref: string }[],
  prefix: string,
  already: StoredFile[] = [],
): Promise<StoredFile[]> {
  const out = [...already];
  for (const [i, f] of files.entries()) {
    const stored = await attachUpload(trx, workspaceId, f.upload_ref, `${prefix}[${i}].upload_ref`);
    if (!out.some((o) => o.id === stored.id)) out.push(stored);
  }
  return out;
}
