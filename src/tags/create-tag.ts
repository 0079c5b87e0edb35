import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import { badRequest, duplicate } from '../http/errors.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { checkLabel, trimLabel } from './labels.ts';
import { presentTag } from './present.ts';
import { countTags, findTagByLabel, lockTagCreation } from './repository.ts';
import type { TagCreate } from './schemas.ts';

/** Tags a workspace may create through POST /v1/tags. */
export const MAX_TAGS_PER_WORKSPACE = 200;

export async function createTag(db: Db, workspaceId: string, body: Static<typeof TagCreate>) {
  const input = { label: trimLabel(body.label) };
  checkLabel(input.label, 'label');
  try {
    return await db.transaction().execute(async (trx) => {
      await lockTagCreation(trx, workspaceId);
      const same = await findTagByLabel(trx, workspaceId, input.label);
      if (same) throw duplicate(`A tag labelled "${same.label}" already exists`, 'label');
      if ((await countTags(trx, workspaceId)) >= MAX_TAGS_PER_WORKSPACE) {
        throw badRequest(`Maximum items reached: a workspace holds at most ${MAX_TAGS_PER_WORKSPACE} tags`);
      }
      const row = await trx
        .insertInto('tags')
        .values({ id: randomUUID(), workspace_id: workspaceId, label: input.label })
        .returningAll()
        .executeTakeFirstOrThrow();
      return presentTag(row);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'tags_label'))
      throw duplicate(`A tag labelled "${input.label}" already exists`, 'label');
    throw err;
  }
}
