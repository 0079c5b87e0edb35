import type { Readable } from 'node:stream';
import type { AppContext } from '../app-context.ts';
import { openFileStream } from '../files/attach-upload.ts';
import { getStorage, StoredObjectNotFound } from '../files/storage.ts';
import { notFound } from '../http/errors.ts';
import type { PortalAccess } from './auth.ts';

export interface Logo {
  mime: string;
  size: number;
  stream: Readable;
}

/**
 * `GET /portal/api/logo`: the bytes of the link's portal's logo, with their sniffed image type so
 * the page can show them; 404 when the portal has none (or its file is not an image).
 */
export async function readLogo(ctx: AppContext, access: PortalAccess): Promise<Logo> {
  const { portal } = access;
  if (!portal.logo_file_id) throw notFound('Logo');
  const file = await ctx.db
    .selectFrom('files')
    .select(['mime', 'size', 'storage_key'])
    .where('id', '=', portal.logo_file_id)
    .where('workspace_id', '=', portal.workspace_id)
    .executeTakeFirst();
  if (!file?.mime.startsWith('image/')) throw notFound('Logo');
  try {
    return { mime: file.mime, size: Number(file.size), stream: await openFileStream(getStorage(ctx), file) };
  } catch (err) {
    if (err instanceof StoredObjectNotFound) throw notFound('Logo');
    throw err;
  }
}
