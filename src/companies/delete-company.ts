import type { AppContext } from '../app-context.ts';
import { findInLiveCase, lockCase, touchCase } from '../cases/repository.ts';
import { recordEvents } from '../events/record-event.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { relationsDeletedEvents, removeRelationsOf } from '../relations/remove-relations-of.ts';
import { presentCompanyListItem } from './present.ts';
import { findCompany } from './repository.ts';

/**
 * Deletes a company and the relations on either end, each announced as a deleted relation, in one
 * transaction. The main company cannot be deleted while the case has other companies or individuals:
 * the case would have no main company while it has entities. An affiliated company's deletion may
 * leave other entities with no relation: they stay in the case (docs/case-graph.md).
 */
export async function deleteCompany(ctx: AppContext, workspaceId: string, id: string) {
  const seen = await findCompany(ctx.db, workspaceId, id);
  if (!seen) throw notFound('Company');
  await ctx.db.transaction().execute(async (trx) => {
    // the case first, as every write under a case does: one lock order, no deadlock with case writes
    if (!(await lockCase(trx, workspaceId, seen.case_id))) throw notFound('Company');
    // read again under the lock: a concurrent delete of the same entity that committed meanwhile
    // makes this one a 404, not a second Deleted event
    const found = await findInLiveCase(trx, 'companies', workspaceId, seen.id);
    if (!found) throw notFound('Company');
    if (found.type === 'main') {
      const others = await trx
        .selectFrom('companies')
        .select('id')
        .where('case_id', '=', found.case_id)
        .where('id', '<>', found.id)
        .unionAll(trx.selectFrom('individuals').select('id').where('case_id', '=', found.case_id))
        .limit(1)
        .execute();
      if (others.length) {
        throw badRequest(
          'The main company cannot be deleted while the case has other companies or individuals',
          'id',
        );
      }
    }
    // its checks go with it (foreign keys): each is announced as a deleted check
    await ctx.hooks.beforeEntityDeleted?.(trx, workspaceId, { kind: 'company', id: found.id });
    const removed = await removeRelationsOf(trx, found.id);
    await trx.deleteFrom('companies').where('id', '=', found.id).execute();
    const touched = await touchCase(trx, found.case_id);
    await recordEvents(trx, workspaceId, [
      ...relationsDeletedEvents(touched, removed),
      {
        type: 'Company.Deleted',
        case_id: found.case_id,
        payload: { company: presentCompanyListItem(found) },
      },
    ]);
    // its checks went with it: the case's flags no longer count them
    await ctx.hooks.afterCaseCountedChecksChanged?.(trx, workspaceId, found.case_id);
  });
}
