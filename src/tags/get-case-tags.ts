import { findCaseById } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { presentTag } from './present.ts';
import { tagsForLabels } from './repository.ts';

/** The tags of a case, in the order they were put on it. */
export async function getCaseTags(db: Db, workspaceId: string, caseId: string) {
  const kase = await findCaseById(db, workspaceId, caseId);
  if (!kase) throw notFound('Case');
  return { tags: (await tagsForLabels(db, workspaceId, kase.tags)).map(presentTag) };
}
