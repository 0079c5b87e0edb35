import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { contactHasActionsFor } from '../checks/engine/case-effects.ts';
import { updateIfChanged } from '../db/update-if-changed.ts';
import { nextVersionStamp } from '../db/version-stamp.ts';
import { type DomainEvent, recordEvents, SYSTEM } from '../events/record-event.ts';
import { assertVersion, type IfMatch } from '../http/conditional.ts';
import { conflict, notFound } from '../http/errors.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { noteAuditBefore } from '../shared/request-scope.ts';
import { tagChanges, tagsActivity } from '../tags/case-events.ts';
import { caseTagLabels } from '../tags/case-tag-labels.ts';
import { checkAssignee } from './assignee.ts';
import { assertNotAnotherCaseId, assertPathUsableExternalId } from './external-id.ts';
import { presentCase } from './present.ts';
import { findCase, lockCase } from './repository.ts';
import type { CaseUpdate } from './schemas.ts';

const SUB_EVENTS: [keyof Static<typeof CaseUpdate>, string][] = [
  ['status', 'Case.StatusUpdated'],
  ['tags', 'Case.TagsUpdated'],
  ['assignee_id', 'Case.AssigneeUpdated'],
  ['name', 'Case.InfoUpdated'],
  ['external_id', 'Case.InfoUpdated'],
  ['metadata', 'Case.MetadataUpdated'],
  // the reference has no sub-event of its own for custom properties: they are the case's information
  ['custom_properties', 'Case.InfoUpdated'],
];

export async function updateCase(
  ctx: AppContext,
  workspaceId: string,
  idOrExternal: string,
  input: Static<typeof CaseUpdate>,
  /** The request's If-Match: compared with the case under its lock, before any change. */
  condition?: IfMatch,
) {
  const target = await findCase(ctx.db, workspaceId, idOrExternal);
  if (!target) throw notFound('Case');
  assertPathUsableExternalId(input.external_id);
  await assertNotAnotherCaseId(ctx.db, workspaceId, input.external_id, target.id);
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      // the tags before the case (lock order: src/tags/repository.ts)
      const tags = input.tags !== undefined ? await caseTagLabels(trx, workspaceId, input.tags) : undefined;
      // the case as it is under the lock: custom_properties merge into, and the sub-events compare
      // with, what is stored now, not what was read before another request's change committed
      const found = await lockCase(trx, workspaceId, target.id);
      if (!found) throw notFound('Case');
      // the audit entry says the status and assignee a change replaced, as read under the lock
      noteAuditBefore({
        ...(input.status !== undefined ? { status: found.status } : {}),
        ...(input.assignee_id !== undefined ? { assignee_id: found.assignee_id } : {}),
      });
      assertVersion(condition, found.updated_at, 'case');
      const set: Record<string, unknown> = {};
      if (input.name !== undefined) set.name = input.name;
      if (input.status !== undefined) set.status = input.status;
      if (input.external_id !== undefined) set.external_id = input.external_id;
      if (input.assignee_id !== undefined) {
        // the one there already (stored before assignees were checked) may be given again
        set.assignee_id =
          input.assignee_id === found.assignee_id
            ? found.assignee_id
            : await checkAssignee(trx, workspaceId, input.assignee_id);
      }
      if (input.metadata !== undefined)
        set.metadata = input.metadata === null ? null : JSON.stringify(input.metadata);
      if (input.custom_properties !== undefined) {
        // custom properties merge key by key; a null value clears one
        const merged = { ...(found.custom_properties ?? {}), ...input.custom_properties };
        set.custom_properties = JSON.stringify(merged);
      }
      if (tags !== undefined) set.tags = tags;
      // a closed case reopened: what its checks wait for from the contact counts again
      if (input.status !== undefined) {
        set.contact_has_actions = await contactHasActionsFor(trx, found, input.status);
      }
      // values already stored change nothing: no stamp, no event (the template below decides alone)
      const row =
        (await updateIfChanged(trx, 'cases', found.id, set, {
          updated_at: nextVersionStamp(),
          last_activity_at: sql`now()`,
        })) ?? found;
      const payload = { case: presentCase(row) };
      const subs = new Set<string>();
      for (const [field, sub] of SUB_EVENTS) {
        if (input[field] === undefined) continue;
        if (
          JSON.stringify(found[field as keyof typeof found]) ===
          JSON.stringify(row[field as keyof typeof row])
        )
          continue;
        subs.add(sub);
      }
      if (row.contact_has_actions !== found.contact_has_actions) subs.add('Case.ContactHasActionsUpdated');
      const events: DomainEvent[] = [...subs].map((sub) => ({
        type: 'Case.Updated',
        sub_event: sub,
        case_id: row.id,
        payload,
        ...(sub === 'Case.TagsUpdated'
          ? { activity: tagsActivity(found.tags, row.tags), changes: tagChanges(found.tags, row.tags) }
          : {}),
        // the payload holds the new assignee only: the activity says who had the case
        ...(sub === 'Case.AssigneeUpdated'
          ? { changes: [{ name: 'assignee_id', previous: found.assignee_id, next: row.assignee_id }] }
          : {}),
        // the flag follows the checks, as when a check changes: the system's doing
        ...(sub === 'Case.ContactHasActionsUpdated' ? { actor: SYSTEM } : {}),
      }));
      await recordEvents(trx, workspaceId, events);
      const changesTemplate = input.template_key !== undefined || input.template_id !== undefined;
      if (changesTemplate && ctx.hooks.changeCaseTemplate) {
        const ref = { template_key: input.template_key ?? null, template_id: input.template_id ?? null };
        await ctx.hooks.changeCaseTemplate(trx, workspaceId, row, ref);
      }
      // a draft opened with its template's checks all approved: the auto-approval they could not
      // trigger while it was a draft happens now (a case decided before, set back to draft and
      // opened, is not decided again: src/templates/auto-approval.ts)
      const opened = found.status === 'draft' && row.status === 'open';
      if (opened && ctx.hooks.afterCaseOpened) {
        const current = await lockCase(trx, workspaceId, row.id);
        if (current) await ctx.hooks.afterCaseOpened(trx, current);
      }
      if (changesTemplate || opened) {
        // the template, the flags its checks set and an automatic decision are part of the answer
        return presentCase(
          await trx.selectFrom('cases').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow(),
        );
      }
      return presentCase(row);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'cases_external_id')) {
      throw conflict(`A case with external_id "${input.external_id}" already exists`, 'external_id');
    }
    throw err;
  }
}
