import type { AppContext } from '../../../app-context.ts';
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

/** When the analysis starts: after the sandbox delay, as other providers' work. */
export const processAfter = (ctx: AppContext) => ({
  startAfter: new Date(Date.now() + ctx.config.sandboxDelayMs),
});
