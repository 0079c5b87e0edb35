import { sql } from 'kysely';
import { lockCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { recordTagsUpdated } from './case-events.ts';
import { trimLabel } from './labels.ts';
import { presentTag } from './present.ts';
import { resolveTagRefs, tagsForLabels } from './repository.ts';

/**
 * Takes tags off a case. Each reference is a tag id or a label (matched case-insensitively);
 * when any is not on the case, nothing changes and the answer is 404. Returns the remaining tags.
 */
export async function removeCaseTags(db: Db, workspaceId: string, caseId: string, given: string[]) {
  const refs = given.map(trimLabel);
  return db.transaction().execute(async (trx) => {
    const kase = await lockCase(trx, workspaceId, caseId);
    if (!kase) throw notFound('Case');
    const resolved = await resolveTagRefs(trx, workspaceId, refs);
    const remove = new Set<string>();
    const missing: string[] = [];
    refs.forEach((ref, i) => {
      const label = resolved[i]?.label ?? ref;
      const onCase =
        kase.tags.find((l) => l === label) ?? kase.tags.find((l) => l.toLowerCase() === label.toLowerCase());
      if (onCase === undefined) missing.push(ref);
      else remove.add(onCase);
    });
    if (missing.length) throw new ApiError(404, `tags not found on case: ${missing.join(', ')}`);

    const row = await trx
      .updateTable('cases')
      .set({
        tags: kase.tags.filter((l) => !remove.has(l)),
        updated_at: sql`now()`,
        last_activity_at: sql`now()`,
      })
      .where('id', '=', kase.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordTagsUpdated(trx, workspaceId, [row], 'removed_tags__case', new Map([[kase.id, kase.tags]]));
    return { tags: (await tagsForLabels(trx, workspaceId, row.tags)).map(presentTag) };
  });
}
