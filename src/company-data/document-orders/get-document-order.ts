import type { Static } from 'typebox';
import type { Db } from '../../db/connect.ts';
import { notFound } from '../../http/errors.ts';
import type { DocumentOrder } from '../schemas.ts';
import { presentDocumentOrder } from './present.ts';
import { findDocumentOrder } from './repository.ts';

/** `GET /company-data/document-orders/{id}` (ours; the reference has no read of one order). */
export async function getDocumentOrder(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<Static<typeof DocumentOrder>> {
  const row = await findDocumentOrder(db, workspaceId, id);
  if (!row) throw notFound('Document order');
  return presentDocumentOrder(row);
}
