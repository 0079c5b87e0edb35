import type { AppContext } from '../app-context.ts';
import { findInLiveCase, lockCase, touchCase } from '../cases/repository.ts';
import { keepWithdrawnLinks } from '../client-portals/links.ts';
import { recordEvents } from '../events/record-event.ts';
import { notFound } from '../http/errors.ts';
import { relationsDeletedEvents, removeRelationsOf } from '../relations/remove-relations-of.ts';
import { presentIndividualListItem } from './present.ts';
import { findIndividual } from './repository.ts';

/**
 * Deletes an individual with its relations, each announced as a deleted relation (and, through the
 * foreign keys, its checks), in one transaction. A company left with no relation stays in the case
 * (docs/case-graph.md).
 */
export async function deleteIndividual(ctx: AppContext, workspaceId: string, id: string) {
  const seen = await findIndividual(ctx.db, workspaceId, id);
  if (!seen) throw notFound('Individual');
  await ctx.db.transaction().execute(async (trx) => {
    // the case first, as every write under a case does: one lock order, no deadlock with case writes
    if (!(await lockCase(trx, workspaceId, seen.case_id))) throw notFound('Individual');
    // read again under the lock: a concurrent delete of the same entity that committed meanwhile
    // makes this one a 404, not a second Deleted event
    const found = await findInLiveCase(trx, 'individuals', workspaceId, seen.id);
    if (!found) throw notFound('Individual');
    // its checks go with it (foreign keys): each is announced as a deleted check
    await ctx.hooks.beforeEntityDeleted?.(trx, workspaceId, { kind: 'individual', id: found.id });
    // their portal links go with them: their pages are to say the link was withdrawn
    await keepWithdrawnLinks(trx, workspaceId, { individualId: found.id });
    const removed = await removeRelationsOf(trx, found.id);
    await trx.deleteFrom('individuals').where('id', '=', found.id).execute();
    const touched = await touchCase(trx, found.case_id);
    await recordEvents(trx, workspaceId, [
      ...relationsDeletedEvents(touched, removed),
      {
        type: 'Individual.Deleted',
        case_id: found.case_id,
        payload: { individual: presentIndividualListItem(found) },
      },
    ]);
    // its checks went with it: the case's flags no longer count them
    await ctx.hooks.afterCaseCountedChecksChanged?.(trx, workspaceId, found.case_id);
  });
}
