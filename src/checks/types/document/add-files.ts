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
import { attemptData, type DocumentCheckData, type DocumentInternal } from './check-data.ts';
import { attachFiles } from './files.ts';
import { MAX_DOCUMENT_FILES } from './schemas.ts';
import { type AutomaticRulesIn, resolveDocumentSettings } from './settings.ts';

export const ADD_FILES_STATUSES = ['in_progress', 'need_review', 'rejected', 'expired'] as const;

export interface DocumentAddFilesInput {
  files: { upload_ref: string }[];
  settings?: { document_analysis?: AutomaticRulesIn['document_analysis'] } | null;
}

/**
 * `POST /checks/document/{id}/add_files`. In `in_progress` or `need_review` the files join the
 * current attempt (at most 10 in all, else 400) and the attempt is analysed (→ processing). In
 * `rejected` or `expired` a new attempt opens with these files: the finished attempt's data moves
 * to the check's `history`, the id stays, Check.Started is emitted again. Other statuses → 400.
 */
export async function addDocumentFiles(
  ctx: AppContext,
  workspaceId: string,
  def: CheckTypeDefinition,
  id: string,
  input: DocumentAddFilesInput,
) {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, workspaceId, id, true);
    if (!check || check.type !== def.type) throw notFound(`${def.type} check`);
    return addDocumentFilesToCheck(ctx, trx, def, check, input);
  });
  return presentCheck(row);
}

/**
 * add_files on a check the caller found and locked in its transaction `trx` (the API route above,
 * the client portal's submit): the same rules, the changed row back.
 */
export async function addDocumentFilesToCheck(
  ctx: AppContext,
  trx: Db,
  def: CheckTypeDefinition,
  check: CheckRow,
  input: DocumentAddFilesInput,
): Promise<CheckRow> {
  if (!(ADD_FILES_STATUSES as readonly string[]).includes(check.status)) {
    throw badRequest(
      `Files can be added only to a check in_progress, need_review, rejected or expired; this one is ${check.status}`,
      // the check's own status is what is wrong: named as the aml hit review names it
      'status',
    );
  }
  const workspaceId = check.workspace_id;
  const data = check.data as unknown as DocumentCheckData;
  const internal = check.internal as unknown as DocumentInternal;
  const sameAttempt = check.status === 'in_progress' || check.status === 'need_review';
  const kept = sameAttempt ? (internal.files ?? []) : [];
  // counted once attached: a file the attempt already holds (or one given twice) is one file, so
  // re-sending the attempt's files with one more is not refused (the refusal rolls the attach back)
  const files = await attachFiles(trx, workspaceId, input.files, 'files', kept);
  if (files.length > MAX_DOCUMENT_FILES) {
    throw badRequest(
      `A document check holds at most ${MAX_DOCUMENT_FILES} files; it has ${kept.length}, these would make ${files.length}`,
      'files',
    );
  }
  const settings = resolveDocumentSettings(
    data.settings.document_type,
    { document_analysis: input.settings?.document_analysis },
    {},
    data.settings.document_analysis,
  );
  const next = {
    trigger: 'add_files',
    status: 'processing' as const,
    data: attemptData(settings, files) as unknown as Record<string, unknown>,
    internal: { ...internal, files } as unknown as Record<string, unknown>,
    expiresAt: null,
    process: processAfter(ctx),
  };
  if (sameAttempt) return applyOutcome(ctx, trx, def, check, next);
  return applyOutcome(ctx, trx, def, check, {
    ...next,
    ...nextAttempt(check),
  });
}
