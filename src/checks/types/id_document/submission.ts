import type { Db } from '../../../db/connect.ts';
import { attachUpload } from '../../../files/attach-upload.ts';
import type { AttemptFiles } from './check-data.ts';

/** Attaches the uploads of a submission (400 naming `<prefix>front_upload_ref` etc. when unknown or expired). */
export async function attachFiles(
  trx: Db,
  workspaceId: string,
  files: { front_upload_ref: string; back_upload_ref?: string | null },
  prefix: string,
): Promise<AttemptFiles> {
  const front = await attachUpload(trx, workspaceId, files.front_upload_ref, `${prefix}front_upload_ref`);
  const back =
    files.back_upload_ref == null
      ? null
      : await attachUpload(trx, workspaceId, files.back_upload_ref, `${prefix}back_upload_ref`);
  return { front, back };
}
