import type { AppContext } from '../../../app-context.ts';
import { notFound } from '../../../http/errors.ts';
import { updateCheckData } from '../../engine/apply-change.ts';
import { presentCheck } from '../../present.ts';
import { findCheck } from '../../repository.ts';
import type { AmlDataOut } from './schemas.ts';

/** Turns monitoring on or off (`data.vendor.is_search_monitored`); any status. */
export async function updateAmlMonitoring(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  isMonitored: boolean,
) {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, workspaceId, id, true);
    if (check?.type !== 'aml') throw notFound('aml check');
    const data = check.data as unknown as AmlDataOut;
    if (data.vendor.is_search_monitored === isMonitored) return check;
    const next: AmlDataOut = { ...data, vendor: { ...data.vendor, is_search_monitored: isMonitored } };
    return updateCheckData(trx, check, next as unknown as Record<string, unknown>);
  });
  return presentCheck(row);
}
