import { sql } from 'kysely';
import type { AppContext } from '../../../app-context.ts';
import { touchCase } from '../../../cases/repository.ts';
import { notFound } from '../../../http/errors.ts';
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
    const updated = await trx
      .updateTable('checks')
      .set({ data: JSON.stringify(next), updated_at: sql`now()`, last_activity_at: sql`now()` })
      .where('id', '=', check.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await touchCase(trx, check.case_id);
    return updated;
  });
  return presentCheck(row);
}
