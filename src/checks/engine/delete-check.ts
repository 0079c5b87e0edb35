import { sql } from 'kysely';
import type { AppContext } from '../../app-context.ts';
import { recordDeletedCheckFiles } from '../../cases/case-files.ts';
import { keepWithdrawnLinks } from '../../client-portals/links.ts';
import type { Db } from '../../db/connect.ts';
import type { CheckRow } from '../../db/schema.ts';
import { recordEvents } from '../../events/record-event.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { presentCheck } from '../present.ts';
import { checkTypeDefinition } from '../registry.ts';
import { findCheck } from '../repository.ts';
import { refreshCaseAfterCheckChange } from './case-effects.ts';
import { touchCheckEntity } from './touch-entity.ts';

/** The event of a deleted check: the check as it was. */
const checkDeleted = (check: CheckRow) => ({
  type: 'Check.Deleted',
  case_id: check.case_id,
  payload: { check: presentCheck(check) },
});

/**
 * Before a company or individual is deleted with its checks (foreign keys), in its transaction:
 * each check is announced as deleted, and its files kept as the case's, as deleting it alone does.
 */
export async function announceEntityChecksDeleted(
  trx: Db,
  workspaceId: string,
  entity: { kind: 'company' | 'individual'; id: string },
) {
  const checks = await trx
    .selectFrom('checks')
    .selectAll()
    .where(entity.kind === 'company' ? 'company_id' : 'individual_id', '=', entity.id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  if (!checks.length) return;
  // their files stay the case's: erased or withheld with it
  await recordDeletedCheckFiles(
    trx,
    workspaceId,
    checks.map((c) => c.id),
  );
  await recordEvents(trx, workspaceId, checks.map(checkDeleted));
}

export async function deleteCheck(ctx: AppContext, workspaceId: string, id: string) {
  await ctx.db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, workspaceId, id, true);
    if (!check) throw notFound('Check');
    // a read-only type (company_monitoring) belongs to the workspace's configuration, not to the API:
    // deleting it would leave the company unmonitored until the next pass recreates it
    if (checkTypeDefinition(check.type)?.readOnly) {
      throw badRequest(`${check.type} checks are read-only over the API and cannot be deleted`, 'id');
    }
    // its links (a verification URL, a signature's link) go with it: answered as withdrawn
    await keepWithdrawnLinks(trx, workspaceId, { checkId: check.id });
    // its files stay the case's: erased or withheld with it (they were found through the check)
    await recordDeletedCheckFiles(trx, workspaceId, [check.id]);
    await trx.deleteFrom('checks').where('id', '=', check.id).execute();
    if (check.template_id && check.status !== 'approved') {
      // "every check it created is approved" can no longer come true: the case's template stops
      // deciding it, or deleting its last undecided (or rejected) check would approve the case
      await trx
        .updateTable('cases')
        .set({ template_check_deleted_at: sql`now()` })
        .where('id', '=', check.case_id)
        .where('template_id', '=', check.template_id)
        .where('template_check_deleted_at', 'is', null)
        .execute();
    }
    await recordEvents(trx, workspaceId, [checkDeleted(check)]);
    await touchCheckEntity(trx, check);
    await refreshCaseAfterCheckChange(ctx, trx, workspaceId, check.case_id);
  });
}
