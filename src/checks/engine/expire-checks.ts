import type { AppContext } from '../../app-context.ts';
import type { CheckStatus } from '../check-type.ts';
import { COMMON_TRANSITIONS, findTransition } from '../common-transitions.ts';
import { checkTypeDefinition } from '../registry.ts';
import { lockCheckById } from '../repository.ts';
import { applyOutcome } from './apply-change.ts';
import { inLiveCase } from './live-case.ts';

/**
 * Checks past their expiration date become `expired` and emit Check.Expired (scheduled job); those
 * of a deleted case are left as they are.
 */
export async function expireDueChecks(ctx: AppContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .selectFrom('checks')
    .select('id')
    .where('expires_at', '<=', now)
    .where('status', 'in', ['in_progress', 'processing', 'need_review', 'approved'])
    .where(inLiveCase)
    .limit(1000)
    .execute();
  let expired = 0;
  for (const { id } of due) {
    await ctx.db.transaction().execute(async (trx) => {
      const check = await lockCheckById(trx, id);
      if (!check?.expires_at || check.expires_at > now) return;
      if (!findTransition(COMMON_TRANSITIONS, check.status as CheckStatus, 'expire', 'expired')) return;
      const def = checkTypeDefinition(check.type);
      if (!def) return;
      await applyOutcome(ctx, trx, def, check, {
        trigger: 'expire',
        status: 'expired',
        data: check.data as Record<string, unknown>,
      });
      expired++;
    });
  }
  return expired;
}
