import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { presentTag } from './present.ts';
import { findTag } from './repository.ts';

export async function getTag(db: Db, workspaceId: string, id: string) {
  const row = await findTag(db, workspaceId, id);
  if (!row) throw notFound('Tag');
  return presentTag(row);
}
