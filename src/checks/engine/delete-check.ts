import type { AppContext } from '../../app-context.ts';
import { recordEvents } from '../../events/record-event.ts';
import { notFound } from '../../http/errors.ts';
import { presentCheck } from '../present.ts';
import { findCheck } from '../repository.ts';
import { refreshCaseAfterCheckChange } from './case-effects.ts';

export async function deleteCheck(ctx: AppContext, workspaceId: string, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, workspaceId, id, true);
    if (!check) throw notFound('Check');
    await trx.deleteFrom('checks').where('id', '=', check.id).execute();
    await recordEvents(trx, workspaceId, [
      { type: 'Check.Deleted', case_id: check.case_id, payload: { check: presentCheck(check) } },
    ]);
    await refreshCaseAfterCheckChange(ctx, trx, workspaceId, check.case_id);
  });
}
