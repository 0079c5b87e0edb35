import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { CaseRow } from '../db/schema.ts';
import { confirmCaseReview } from '../reviews/confirm-case-review.ts';

/**
 * Transactions applying a template: auto-approval waits until every check of the run exists
 * (otherwise the first synchronous approval would approve the case alone).
 */
const applying = new WeakSet<object>();

export async function withAutoApprovalSuspended<T>(trx: Db, fn: () => Promise<T>): Promise<T> {
  if (applying.has(trx)) return fn();
  applying.add(trx);
  try {
    return await fn();
  } finally {
    applying.delete(trx);
  }
}

/**
 * Case auto-approval (spec: open → approved when the case's template has auto-approval and every
 * check it created is approved). Runs in the transaction of the check change, after the case row
 * is locked, so two checks approved concurrently cannot both miss the last approval. The template
 * is read live: turning `case_auto_approval` off, or deleting the template, stops it. A template
 * check deleted before it was approved stops it too, until the template runs on the case again.
 */
export async function evaluateAutoApproval(trx: Db, caseRow: CaseRow): Promise<boolean> {
  if (!caseRow.template_id || caseRow.status !== 'open' || caseRow.deleted_at) return false;
  // one of its checks was deleted before approval (src/checks/engine/delete-check.ts): a person decides
  if (caseRow.template_check_deleted_at) return false;
  // a case decided once (it keeps its latest review) is decided again by a review only, however it
  // was reopened (approved → draft → open used to be approved again by the template)
  if (caseRow.review) return false;
  if (applying.has(trx)) return false;
  const { rows } = await sql<{ auto: boolean; total: string; approved: string }>`
    select t.case_auto_approval as auto,
      (select count(*) from checks k where k.case_id = ${caseRow.id} and k.template_id = t.id) as total,
      (select count(*) from checks k where k.case_id = ${caseRow.id} and k.template_id = t.id
        and k.status = 'approved') as approved
    from templates t
    where t.id = ${caseRow.template_id} and t.workspace_id = ${caseRow.workspace_id} and t.deleted_at is null
  `.execute(trx);
  const r = rows[0];
  if (!r?.auto) return false;
  const total = Number(r.total);
  if (total === 0 || Number(r.approved) !== total) return false;
  await confirmCaseReview(trx, {
    workspaceId: caseRow.workspace_id,
    caseId: caseRow.id,
    status: 'approved',
    reviewerType: 'system',
    comment: null,
  });
  return true;
}
