import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import { duplicate, notFound } from '../http/errors.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { recordTagsUpdated } from './case-events.ts';
import { checkLabel, trimLabel } from './labels.ts';
import { presentTag } from './present.ts';
import { findTag, findTagByLabel, renameLabelOnCases } from './repository.ts';
import type { TagUpdate } from './schemas.ts';

/** Renames a tag, and the label on every case of the workspace carrying it (one transaction). */
export async function updateTag(db: Db, workspaceId: string, id: string, body: Static<typeof TagUpdate>) {
  const input = { label: trimLabel(body.label) };
  checkLabel(input.label, 'label');
  try {
    return await db.transaction().execute(async (trx) => {
      const tag = await findTag(trx, workspaceId, id, true);
      if (!tag) throw notFound('Tag');
      if (tag.label === input.label) return presentTag(tag);
      const same = await findTagByLabel(trx, workspaceId, input.label, tag.id);
      if (same) throw duplicate(`A tag labelled "${same.label}" already exists`, 'label');
      const row = await trx
        .updateTable('tags')
        .set({ label: input.label, updated_at: sql`now()` })
        .where('id', '=', tag.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const cases = await renameLabelOnCases(trx, workspaceId, tag.label, input.label);
      await recordTagsUpdated(trx, workspaceId, cases, null);
      return presentTag(row);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'tags_label'))
      throw duplicate(`A tag labelled "${input.label}" already exists`, 'label');
    throw err;
  }
}
