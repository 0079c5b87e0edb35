import { presentCase } from '../cases/present.ts';
import type { Db } from '../db/connect.ts';
import type { CaseRow } from '../db/schema.ts';
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
): Promise<void> {
  await recordEvents(
    trx,
    workspaceId,
    cases.map((c) => ({
      type: 'Case.Updated',
      sub_event: 'Case.TagsUpdated',
      case_id: c.id,
      payload: { case: presentCase(c) },
      activity,
    })),
  );
}

/**
 * The activity of a change from `before` to `after` (labels compared case-insensitively): added
 * when a tag was put on, removed when tags were only taken off. A change doing both (a PATCH
 * replacing the list) is one event, so one activity: added.
 */
export function tagsActivity(before: string[], after: string[]): TagsActivity {
  const lower = (l: string[]) => new Set(l.map((t) => t.toLowerCase()));
  const was = lower(before);
  const now = lower(after);
  if ([...now].some((t) => !was.has(t))) return 'added_tags__case';
  if ([...was].some((t) => !now.has(t))) return 'removed_tags__case';
  return null;
}
