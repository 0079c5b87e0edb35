import type { AppContext } from '../app-context.ts';
import { presentCheck } from '../checks/present.ts';
import type { Db } from '../db/connect.ts';
import type { CheckRow } from '../db/schema.ts';
import { recordEvents } from '../events/record-event.ts';
import { badRequest } from '../http/errors.ts';
import {
  type Action,
  assertAccepting,
  findShown,
  missingSlot,
  pendingFilesOf,
  readAction,
} from './actions.ts';
import type { PortalAccess } from './auth.ts';
import { recordContactAction } from './contact-action.ts';
import { dropPendingFiles } from './pending-files.ts';

/**
 * `POST /portal/api/actions/{id}/submit`: hands the action's pending files to its check type
 * (`portal.submit`, which moves the check through the engine: add_files, processing, the check's
 * events and the case's flags), then drops the pending rows and records the contact action, all in
 * one transaction, and answers the step as that transaction left it (`submitted`). 400 naming
 * `files` when nothing is pending (or the step takes no files now), else naming the first slot that
 * lacks files.
 */
export async function submitAction(
  ctx: AppContext,
  access: PortalAccess,
  checkId: string,
  ip: string,
): Promise<Action> {
  const { link } = access;
  return ctx.db.transaction().execute(async (trx) => {
    const shown = await findShown(trx, link, checkId, true);
    assertAccepting(shown.check);
    const pending = await pendingFilesOf(trx, [checkId]);
    const slots = shown.portal.slots(shown.check);
    // nothing pending at all names `files` whatever the slots; then the first slot still short
    if (!pending.length) {
      throw badRequest(
        slots.length
          ? 'Add a file before submitting this step'
          : 'This step takes no files: there is nothing to submit',
        'files',
      );
    }
    const missing = missingSlot(slots, pending);
    if (missing) {
      throw badRequest(
        `${missing.key} needs ${missing.min_files === 1 ? 'a file' : `at least ${missing.min_files} files`} before this step can be submitted`,
        missing.key,
      );
    }
    await recordContactAction(trx, link.workspace_id, link.case_id);
    await shown.portal.submit({
      ctx,
      trx,
      workspaceId: link.workspace_id,
      check: shown.check,
      files: pending.map((p) => ({
        id: p.id,
        slot: p.slot,
        upload_ref: p.upload_ref,
        file_name: p.file_name,
        size: Number(p.size),
      })),
      actor: { type: 'contact', individualId: link.individual_id },
      ip,
    });
    await dropPendingFiles(
      trx,
      checkId,
      pending.map((p) => p.id),
    );
    await recordFirstSubmission(trx, shown.check);
    // read back inside the transaction: the answer is the step as this submission left it. Read
    // after the commit, it could already hold the provider's decision (the queued work may run
    // first), so the same submission would answer `submitted` or `approved` by timing alone
    return readAction(trx, link, checkId);
  });
}

/**
 * A check's first submission (in_progress → processing, the same attempt) delivers no event: the
 * check started when it was created (Check.Started only again for a new attempt, which is how a
 * retry sent through the portal is the activity `contact__started__check`). The contact's sending
 * is an activity all the same, `contact__started__check` (the actor is the portal's contact), with
 * no webhook (ACTIVITY_ONLY_EVENTS): the case's timeline said nothing between the check's start and
 * its result.
 */
async function recordFirstSubmission(trx: Db, before: CheckRow): Promise<void> {
  if (before.status !== 'in_progress') return;
  const after = await trx
    .selectFrom('checks')
    .selectAll()
    .where('id', '=', before.id)
    .executeTakeFirstOrThrow();
  if (after.status !== 'processing' || after.attempt !== before.attempt) return;
  await recordEvents(trx, after.workspace_id, [
    { type: 'ClientPortal.CheckSent', case_id: after.case_id, payload: { check: presentCheck(after) } },
  ]);
}
