import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { recordTagsUpdated } from './case-events.ts';
import { findTag, removeLabelFromCases } from './repository.ts';

/** Deletes a tag and removes its label from every case of the workspace (one transaction). */
export async function deleteTag(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const tag = await findTag(trx, workspaceId, id, true);
    if (!tag) throw notFound('Tag');
    await trx.deleteFrom('tags').where('id', '=', tag.id).execute();
    const cases = await removeLabelFromCases(trx, workspaceId, tag.label);
    // each case had the label before: its activity names it as taken off
    const before = new Map(cases.map((c) => [c.id, [...c.tags, tag.label]]));
    await recordTagsUpdated(trx, workspaceId, cases, 'removed_tags__case', before);
  });
}
