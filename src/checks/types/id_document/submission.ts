import type { Db } from '../../../db/connect.ts';
import { attachUpload } from '../../../files/attach-upload.ts';
import { badRequest } from '../../../http/errors.ts';
import type { AttemptFiles } from './check-data.ts';

/** Attaches the uploads of a submission (400 naming `<prefix>front_upload_ref` etc. when unknown or expired). */
export async function attachFiles(
  trx: Db,
  workspaceId: string,
  files: { front_upload_ref: string; back_upload_ref?: string | null },
  prefix: string,
): Promise<AttemptFiles> {
  // one upload cannot be both sides: the back would be the front again, analysed twice
  if (files.back_upload_ref != null && files.back_upload_ref === files.front_upload_ref) {
    const path = `${prefix}back_upload_ref`;
    throw badRequest(
      `${path} is the same upload as ${prefix}front_upload_ref: upload the back of the document on its own, or leave it out`,
      path,
    );
  }
  const front = await attachUpload(trx, workspaceId, files.front_upload_ref, `${prefix}front_upload_ref`);
  const back =
    files.back_upload_ref == null
      ? null
      : await attachUpload(trx, workspaceId, files.back_upload_ref, `${prefix}back_upload_ref`);
  return { front, back };
}
