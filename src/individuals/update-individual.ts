import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { followEntityUpdate, updateEntityRow } from '../cases/entity-update.ts';
import { findInLiveCase, lockCase, touchCase } from '../cases/repository.ts';
import { revokeLinksOfFormerContact } from '../client-portals/former-contact.ts';
import { recordEvents } from '../events/record-event.ts';
import { ApiError, notFound } from '../http/errors.ts';
import { birthDateProblem } from './birth-date.ts';
import { individualView } from './individual-view.ts';
import { findIndividual } from './repository.ts';
import type { IndividualUpdate } from './schemas.ts';
import { individualUpdateSet } from './to-row.ts';

export async function updateIndividual(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  input: Static<typeof IndividualUpdate> & { is_relevant?: boolean },
  subEvent = 'Individual.InfoUpdated',
) {
  const found = await findIndividual(ctx.db, workspaceId, id);
  if (!found) throw notFound('Individual');
  const born = birthDateProblem(input.birth_date, 'birth_date');
  if (born) throw new ApiError(400, born.message, [born]);
  return ctx.db.transaction().execute(async (trx) => {
    // the case first, as every write under a case does: one lock order, no deadlock with case writes
    if (!(await lockCase(trx, workspaceId, found.case_id))) throw notFound('Individual');
    // read again under the lock: address and banking_information merge into what is stored now, not
    // into what was read before another request's change committed (a lost update)
    const current = await findInLiveCase(trx, 'individuals', workspaceId, found.id, { forUpdate: true });
    if (!current) throw notFound('Individual');
    const row = await updateEntityRow(trx, 'individuals', current, input, individualUpdateSet(input));
    // a write that changes nothing is no change: no stamp, no event, no template run (a no-op)
    if (!row) return individualView(trx, ctx, current);
    await touchCase(trx, row.case_id);
    // no longer relevant, a business contact or at the same address: their portal links stop working
    await revokeLinksOfFormerContact(trx, current, row);
    const individual = await individualView(trx, ctx, row);
    await recordEvents(trx, workspaceId, [
      { type: 'Individual.Updated', sub_event: subEvent, case_id: row.case_id, payload: { individual } },
    ]);
    const templated = await followEntityUpdate(ctx, trx, workspaceId, { before: current, after: row }, input);
    return templated ? individualView(trx, ctx, row) : individual;
  });
}
