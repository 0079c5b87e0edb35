import { sql } from 'kysely';
import { findCaseById, lockCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
import { recordTagsUpdated } from './case-events.ts';
import { checkLabel, trimLabel } from './labels.ts';
import { presentTag } from './present.ts';
import { ensureTags, resolveTagRefs, tagsForLabels } from './repository.ts';

/**
 * Puts tags on a case. Each reference is a tag id or a label; a label matching no workspace tag
 * (case-insensitively) creates the tag. Labels already on the case are left as they are.
 * Returns every tag of the case.
 */
export async function addCaseTags(db: Db, workspaceId: string, caseId: string, given: string[]) {
  const refs = given.map(trimLabel);
  return db.transaction().execute(async (trx) => {
    // a case that is not there is the first thing said; it is locked only after its tags (lock
    // order: src/tags/repository.ts), and read again then
    if (!(await findCaseById(trx, workspaceId, caseId))) throw notFound('Case');
    const resolved = await resolveTagRefs(trx, workspaceId, refs, true);
    const wanted: string[] = [];
    const toCreate: string[] = [];
    refs.forEach((ref, i) => {
      const tag = resolved[i];
      if (tag) {
        wanted.push(tag.label);
        return;
      }
      if (UUID_RE.test(ref)) throw notFound(`Tag ${ref}`);
      checkLabel(ref, `tags[${i}]`);
      wanted.push(ref);
      toCreate.push(ref);
    });
    // the tags' own spellings: one created meanwhile by another request (`VIP` while this one asked
    // for `Vip`) is the tag, and the case carries its label
    const made = await ensureTags(trx, workspaceId, dedupe(toCreate));
    const spelling = new Map(made.map((t) => [t.label.toLowerCase(), t.label]));
    const kase = await lockCase(trx, workspaceId, caseId);
    if (!kase) throw notFound('Case');

    const next = [...kase.tags];
    for (const label of wanted.map((l) => spelling.get(l.toLowerCase()) ?? l)) {
      if (!next.some((l) => l.toLowerCase() === label.toLowerCase())) next.push(label);
    }
    let row = kase;
    if (next.length !== kase.tags.length) {
      row = await trx
        .updateTable('cases')
        .set({ tags: next, updated_at: sql`now()`, last_activity_at: sql`now()` })
        .where('id', '=', kase.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordTagsUpdated(trx, workspaceId, [row], 'added_tags__case', new Map([[kase.id, kase.tags]]));
    }
    return { tags: (await tagsForLabels(trx, workspaceId, row.tags)).map(presentTag) };
  });
}

/** First occurrence of each label, compared case-insensitively. */
function dedupe(labels: string[]): string[] {
  const seen = new Set<string>();
  return labels.filter((l) => {
    const k = l.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
