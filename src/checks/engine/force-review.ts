import type { AppContext } from '../../app-context.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import type { CheckTypeDefinition } from '../check-type.ts';
import { presentCheck } from '../present.ts';
import { findCheck } from '../repository.ts';
import { reviewNeeded } from '../review-data.ts';
import { applyOutcome } from './apply-change.ts';

/** Why a check pushed to review waits (its `data.review.comment`, in the need_review frame). */
export const FORCED_REVIEW_REASON =
  'pushed to review (force_review) while its analysis had not finished: the files are to be judged by a person';

/** Pushes a check stuck in processing to review (document and id_document). */
export async function forceReview(
  ctx: AppContext,
  workspaceId: string,
  def: CheckTypeDefinition,
  id: string,
) {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, workspaceId, id, true);
    if (!check || check.type !== def.type) throw notFound(`${def.type} check`);
    if (check.status !== 'processing') {
      throw badRequest(
        `Only a check in processing can be pushed to review; this one is ${check.status}`,
        'status',
      );
    }
    const data = check.data as Record<string, unknown>;
    return applyOutcome(ctx, trx, def, check, {
      trigger: 'force_review',
      status: 'need_review',
      // the console shows why a check waits: without a reason it had nothing to say
      data: { ...data, review: reviewNeeded(FORCED_REVIEW_REASON) },
      internal: { ...(check.internal as Record<string, unknown>), forced_review: true },
    });
  });
  return presentCheck(row);
}
