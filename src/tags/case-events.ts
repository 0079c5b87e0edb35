import { presentCase } from '../cases/present.ts';
import type { Db } from '../db/connect.ts';
import type { CaseRow } from '../db/schema.ts';
import { recordEvents } from '../events/record-event.ts';

/** `Case.Updated` / `Case.TagsUpdated` for each case whose tags changed (same transaction). */
export async function recordTagsUpdated(trx: Db, workspaceId: string, cases: CaseRow[]): Promise<void> {
  await recordEvents(
    trx,
    workspaceId,
    cases.map((c) => ({
      type: 'Case.Updated',
      sub_event: 'Case.TagsUpdated',
      case_id: c.id,
      payload: { case: presentCase(c) },
    })),
  );
}
