import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { CaseRow, TagRow } from '../db/schema.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
import { lockWorkspaceRow } from '../workspaces/repository.ts';

/**
 * Takes the workspace's tag-creation lock (its row, as webhook and user creation do): creations of
 * one workspace's tags then come one at a time, each reading what the one before committed, so two
 * spellings of one label (`vip`, `VIP`) are not both created and the 200-tag cap holds. Labels are
 * unique in the database only as written; case-insensitively, only through this lock.
 */
export async function lockTagCreation(trx: Db, workspaceId: string): Promise<void> {
  await lockWorkspaceRow(trx, workspaceId);
}

/**
 * Lock order for putting labels on a case: the tags (shared), then the workspace row when one is
 * created, then the case. A rename or a deletion locks its tag, then updates the cases carrying
 * its label: holding the tags a case is about to carry makes it wait for that case's transaction
 * (and see its label), or makes this one wait and read the renamed or deleted tag, where it used to
 * write the old label after the rename had passed the case (a label no tag had).
 */

/**
 * Makes sure the workspace has a tag for each label and returns them in the order given, one per
 * label, each held with a shared lock until the transaction ends (lock order above: call it before
 * locking the case). Labels compare case-insensitively (as `/v1/tags` does): an existing tag's
 * spelling wins.
 */
export async function ensureTags(trx: Db, workspaceId: string, labels: string[]) {
  const byLower = new Map<string, string>();
  for (const l of labels) if (!byLower.has(l.toLowerCase())) byLower.set(l.toLowerCase(), l);
  if (!byLower.size) return [];
  const lowers = [...byLower.keys()];
  const existing = () => findTagsByLowerLabels(trx, workspaceId, lowers, true);
  let rows = await existing();
  let missing = lowers.filter((k) => !rows.some((r) => r.label.toLowerCase() === k));
  if (missing.length) {
    // read again under the lock: another request may have created one of them meanwhile
    await lockTagCreation(trx, workspaceId);
    rows = await existing();
    missing = lowers.filter((k) => !rows.some((r) => r.label.toLowerCase() === k));
  }
  if (missing.length) {
    await trx
      .insertInto('tags')
      .values(
        missing.map((k) => ({
          id: randomUUID(),
          workspace_id: workspaceId,
          label: byLower.get(k) as string,
        })),
      )
      .onConflict((oc) => oc.columns(['workspace_id', 'label']).doNothing())
      .execute();
    rows = await existing();
  }
  return lowers.flatMap((k) => rows.filter((r) => r.label.toLowerCase() === k).slice(0, 1));
}

/** The workspace's tags whose label, lower-cased, is one of `lowers` (labels compare case-insensitively). */
export function findTagsByLowerLabels(db: Db, workspaceId: string, lowers: string[], share = false) {
  const q = db
    .selectFrom('tags')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where(sql<boolean>`lower(label) = any(cast(${lowers} as text[]))`);
  return (share ? q.forShare() : q).execute();
}

export async function findTag(db: Db, workspaceId: string, id: string, forUpdate = false) {
  let q = db.selectFrom('tags').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** Another tag of the workspace with the same label, compared case-insensitively. */
export async function findTagByLabel(db: Db, workspaceId: string, label: string, exceptId?: string) {
  let q = db
    .selectFrom('tags')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where(sql<boolean>`lower(label) = lower(${label})`);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return q.executeTakeFirst();
}

export async function countTags(db: Db, workspaceId: string) {
  const row = await db
    .selectFrom('tags')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The workspace tags carrying the given labels, in the order of `labels`. */
export async function tagsForLabels(db: Db, workspaceId: string, labels: string[]): Promise<TagRow[]> {
  if (!labels.length) return [];
  const rows = await db
    .selectFrom('tags')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('label', 'in', labels)
    .execute();
  const byLabel = new Map(rows.map((r) => [r.label, r]));
  return labels.map((l) => byLabel.get(l)).filter((t): t is TagRow => t !== undefined);
}

/**
 * Resolves references given as tag ids or labels to existing workspace tags: an id matches that
 * tag; a label matches exactly first, then case-insensitively. Unresolved references map to undefined.
 * `share` holds the tags found until the transaction ends (see the lock order above).
 */
export async function resolveTagRefs(db: Db, workspaceId: string, refs: string[], share = false) {
  const ids = refs.filter((r) => UUID_RE.test(r));
  const lowers = [...new Set(refs.map((r) => r.toLowerCase()))];
  const q = db
    .selectFrom('tags')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([...(ids.length ? [eb('id', 'in', ids)] : []), eb(sql<string>`lower(label)`, 'in', lowers)]),
    )
    .orderBy('created_at');
  const rows = await (share ? q.forShare() : q).execute();
  return refs.map(
    (ref) =>
      rows.find((t) => UUID_RE.test(ref) && t.id === ref.toLowerCase()) ??
      rows.find((t) => t.label === ref) ??
      rows.find((t) => t.label.toLowerCase() === ref.toLowerCase()),
  );
}

/** Renames a label on every case of the workspace that carries it; returns the live ones. */
export async function renameLabelOnCases(
  trx: Db,
  workspaceId: string,
  from: string,
  to: string,
): Promise<CaseRow[]> {
  const rows = await trx
    .updateTable('cases')
    .set({
      tags: sql<string[]>`array_replace(tags, ${from}::text, ${to}::text)`,
      updated_at: sql`now()`,
      last_activity_at: sql`now()`,
    })
    .where('workspace_id', '=', workspaceId)
    .where(sql<boolean>`${from}::text = any(tags)`)
    .returningAll()
    .execute();
  return rows.filter((r) => r.deleted_at === null);
}

/** Removes a label from every case of the workspace that carries it; returns the live ones. */
export async function removeLabelFromCases(trx: Db, workspaceId: string, label: string): Promise<CaseRow[]> {
  const rows = await trx
    .updateTable('cases')
    .set({
      tags: sql<string[]>`array_remove(tags, ${label}::text)`,
      updated_at: sql`now()`,
      last_activity_at: sql`now()`,
    })
    .where('workspace_id', '=', workspaceId)
    .where(sql<boolean>`${label}::text = any(tags)`)
    .returningAll()
    .execute();
  return rows.filter((r) => r.deleted_at === null);
}
