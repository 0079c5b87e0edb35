import { sql } from 'kysely';
import type { AppContext } from '../app-context.ts';
import { presentCase } from '../cases/present.ts';
import type { Db } from '../db/connect.ts';
import type { CaseRow } from '../db/schema.ts';
import { recordEvents } from '../events/record-event.ts';
import { applyTemplate } from './apply-template.ts';
import { resolveTemplateRef, setCaseTemplate } from './resolve-template.ts';

/**
 * `PATCH /v1/cases/{id}` with `template_key` / `template_id` (the reference's update): sets the case's
 * template and applies it to the case's current entities (checks they do not have yet from it),
 * with the events of a creation; `null` detaches the template and leaves its checks in place.
 * Naming the template the case already has changes nothing (like any field given its stored value):
 * it is not applied again, so a template check someone deleted does not come back and the template's
 * later edits are not added. `POST /v1/templates/run` without `template_key` is the request that
 * runs the case's template again.
 */
export async function changeCaseTemplate(
  ctx: AppContext,
  trx: Db,
  workspaceId: string,
  caseRow: CaseRow,
  ref: { template_key?: string | null; template_id?: string | null },
): Promise<void> {
  const template = await resolveTemplateRef(trx, workspaceId, ref);
  // the template it already has: a field given its stored value (src/cases/update-case.ts)
  if (template && caseRow.template_id === template.id) return;
  let updated: CaseRow | undefined;
  if (!template) {
    if (caseRow.template_id === null) return;
    updated = (await trx
      .updateTable('cases')
      .set({ template_id: null, template: null, updated_at: sql`now()`, last_activity_at: sql`now()` })
      .where('id', '=', caseRow.id)
      .returningAll()
      .executeTakeFirstOrThrow()) as CaseRow;
  } else {
    updated = await setCaseTemplate(trx, caseRow.id, template, true);
  }
  if (updated) {
    await recordEvents(trx, workspaceId, [
      {
        type: 'Case.Updated',
        sub_event: 'Case.TemplateUpdated',
        case_id: caseRow.id,
        payload: { case: presentCase(updated) },
      },
    ]);
  }
  if (template) await applyTemplate(ctx, trx, workspaceId, caseRow.id, template, { skipExisting: true });
}
