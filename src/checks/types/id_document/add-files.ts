import type { AppContext } from '../../../app-context.ts';
import type { Db } from '../../../db/connect.ts';
import type { CheckRow } from '../../../db/schema.ts';
import { badRequest, notFound } from '../../../http/errors.ts';
import type { CheckTypeDefinition } from '../../check-type.ts';
import { applyOutcome } from '../../engine/apply-change.ts';
import { nextAttempt } from '../../engine/attempts.ts';
import { processAfter } from '../../engine/queues.ts';
import { presentCheck } from '../../present.ts';
import { findCheck } from '../../repository.ts';
import {
  attemptData,
  type IdDocumentInternal,
  type IdDocumentSettings,
  vendorBlock,
  withSubmissionSent,
} from './check-data.ts';
import { attachFiles } from './submission.ts';

export const ADD_FILES_STATUSES = ['in_progress', 'rejected', 'expired'] as const;

export interface AddFilesInput {
  front_upload_ref: string;
  back_upload_ref?: string | null;
}

/**
 * `POST /checks/id_document/{id}/add_files`. In `in_progress` the images join the current attempt
 * and are submitted (→ processing). In `rejected` or `expired` a new attempt opens: the finished
 * attempt's data moves to the check's `history`, the id stays, and Check.Started is emitted again.
 * Any other status → 400; an unknown or expired upload_ref → 400 naming it, nothing changed.
 */
export async function addFiles(
  ctx: AppContext,
  workspaceId: string,
  def: CheckTypeDefinition,
  id: string,
  input: AddFilesInput,
) {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, workspaceId, id, true);
    if (!check || check.type !== def.type) throw notFound(`${def.type} check`);
    return addFilesToCheck(ctx, trx, def, check, input);
  });
  return presentCheck(row);
}

/**
 * add_files on a check the caller found and locked in its transaction `trx` (the API route above,
 * the client portal's submit): the same rules, the changed row back.
 */
export async function addFilesToCheck(
  ctx: AppContext,
  trx: Db,
  def: CheckTypeDefinition,
  check: CheckRow,
  input: AddFilesInput,
): Promise<CheckRow> {
  if (!(ADD_FILES_STATUSES as readonly string[]).includes(check.status)) {
    throw badRequest(
      `Files can be added only to a check in_progress, rejected or expired; this one is ${check.status}`,
      // the check's own status is what is wrong: named as the aml hit review names it
      'status',
    );
  }
  const files = await attachFiles(trx, check.workspace_id, input, '');
  const data = check.data as Record<string, unknown>;
  const settings = data.settings as IdDocumentSettings;
  const before = check.internal as unknown as IdDocumentInternal;
  // in_progress: the current attempt's first submission; rejected or expired: a new attempt's
  const attempt = check.status === 'in_progress' ? check.attempt : check.attempt + 1;
  const internal = { ...before, files, submissions: withSubmissionSent(before, attempt) };
  if (check.status === 'in_progress') {
    const attached = await applyOutcome(ctx, trx, def, check, {
      trigger: 'add_files',
      status: 'in_progress',
      data: {
        ...data,
        information: {
          ...(data.information as Record<string, unknown>),
          front_file_id: files.front.id,
          back_file_id: files.back?.id ?? null,
        },
      },
      internal: internal as unknown as Record<string, unknown>,
    });
    return applyOutcome(ctx, trx, def, attached, {
      trigger: 'submit',
      status: 'processing',
      data: {
        ...(attached.data as Record<string, unknown>),
        vendor: vendorBlock(settings, check.id, true),
      },
      process: processAfter(ctx),
    });
  }
  return applyOutcome(ctx, trx, def, check, {
    trigger: 'add_files',
    status: 'processing',
    data: attemptData(settings, check.id, files),
    internal: internal as unknown as Record<string, unknown>,
    ...nextAttempt(check),
    expiresAt: null,
    process: processAfter(ctx),
  });
}
