import { presentCase } from '../cases/present.ts';
import type { Db } from '../db/connect.ts';
import type { ActivityChange, CaseRow } from '../db/schema.ts';
import { type DomainEvent, recordEvents } from '../events/record-event.ts';

/** Which activity a tag change is: tags put on the case, or taken off it. */
export type TagsActivity = DomainEvent['activity'];

/**
 * `Case.Updated` / `Case.TagsUpdated` for each case whose tags changed (same transaction), recorded
 * as the given activity (null: none, e.g. a tag renamed everywhere).
 */
export async function recordTagsUpdated(
  trx: Db,
  workspaceId: string,
  cases: CaseRow[],
  activity: TagsActivity,
  /** Each case's tags before the change: the activity names the tags put on and taken off. */
  before?: ReadonlyMap<string, string[]>,
): Promise<void> {
  await recordEvents(
    trx,
    workspaceId,
    cases.map((c) => {
      const was = before?.get(c.id);
      return {
        type: 'Case.Updated',
        sub_event: 'Case.TagsUpdated',
        case_id: c.id,
        payload: { case: presentCase(c) },
        activity,
        ...(was && activity ? { changes: tagChanges(was, c.tags) } : {}),
      };
    }),
  );
}

/**
 * The tags a change put on (`previous` null, `next` the label) and took off (`previous` the label,
 * `next` null), labels compared case-insensitively as everywhere: the activity's `changes`.
 */
export function tagChanges(before: string[], after: string[]): ActivityChange[] {
  const lower = (l: string[]) => new Set(l.map((t) => t.toLowerCase()));
  const was = lower(before);
  const now = lower(after);
  return [
    ...after.filter((t) => !was.has(t.toLowerCase())).map((t) => ({ name: 'tags', previous: null, next: t })),
    ...before
      .filter((t) => !now.has(t.toLowerCase()))
      .map((t) => ({ name: 'tags', previous: t, next: null })),
  ];
}

/**
 * The activity of a change from `before` to `after` (labels compared case-insensitively): added
 * when a tag was put on, removed when tags were only taken off. A change doing both (a PATCH
 * replacing the list) is one event, so one activity: added.
 */
export function tagsActivity(before: string[], after: string[]): TagsActivity {
  const changes = tagChanges(before, after);
  if (changes.some((c) => c.next !== null)) return 'added_tags__case';
  return changes.length ? 'removed_tags__case' : null;
}
