import type { AppContext } from '../../app-context.ts';
import { transactionNow } from '../../db/transaction-now.ts';
import { assertVersion, type IfMatch } from '../../http/conditional.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { commentOrNull } from '../../shared/comment-or-null.ts';
import { noteAuditBefore } from '../../shared/request-scope.ts';
import type { NestedUserOut } from '../../users/nested-user.ts';
import type { CheckTypeDefinition } from '../check-type.ts';
import { presentCheck } from '../present.ts';
import { findCheck } from '../repository.ts';
import { applyOutcome } from './apply-change.ts';

export interface ReviewInput {
  action: 'approve' | 'reject';
  comment?: string | null;
  override?: boolean;
}

/**
 * A reviewer's decision: by API (reviewer_type `api`, user null), or by a console user given as
 * `user` (reviewer_type `user`; the check keeps the user as named at review time). Decided checks
 * change only with override. `condition` (the request's If-Match) is compared with the check as it
 * is under its lock, before anything else: a stale one is the 412, whatever the review would say.
 */
export async function reviewCheck(
  ctx: AppContext,
  workspaceId: string,
  def: CheckTypeDefinition,
  id: string,
  input: ReviewInput,
  user: NestedUserOut | null = null,
  condition?: IfMatch,
) {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, workspaceId, id, true);
    if (!check || check.type !== def.type) throw notFound(`${def.type} check`);
    // the audit entry says what the review overrode (an approved check rejected), beside the action
    noteAuditBefore({ status: check.status });
    assertVersion(condition, check.updated_at, 'check');
    if ((check.status === 'approved' || check.status === 'rejected') && !input.override) {
      throw badRequest(
        `The check is already ${check.status}; send override: true to change a decided check`,
        'override',
      );
    }
    def.beforeReview?.(check);
    const status = input.action === 'approve' ? 'approved' : 'rejected';
    const now = await transactionNow(trx);
    const reviewed = {
      ...(check.data as Record<string, unknown>),
      result: status,
      review: {
        comment: commentOrNull(input.comment),
        reviewed_at: now.toISOString(),
        reviewer_type: user ? 'user' : 'api',
        user,
      },
    };
    const data = def.onReview
      ? await def.onReview({ trx, check, data: reviewed, decision: status, now })
      : reviewed;
    // a check already past its expiration date (expired, or due and not yet swept) is decided
    // knowing it: the date is spent, else the expiry job turned the reviewer's decision back into
    // `expired` (a second Check.Expired) within a minute
    const spent = check.expires_at !== null && check.expires_at <= now;
    return applyOutcome(ctx, trx, def, check, {
      trigger: 'review',
      status,
      data,
      ...(spent ? { expiresAt: null } : {}),
    });
  });
  return presentCheck(row);
}
