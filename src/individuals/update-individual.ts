import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { findInLiveCase, lockCase, touchCase } from '../cases/repository.ts';
import { originAfterUpdate } from '../company-data/lineage/origin-after-update.ts';
import { recordEvents } from '../events/record-event.ts';
import { notFound } from '../http/errors.ts';
import { bankingValue, fullAddress, mergeAddress } from '../shared/address.ts';
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
  return ctx.db.transaction().execute(async (trx) => {
    // the case first, as every write under a case does: one lock order, no deadlock with case writes
    if (!(await lockCase(trx, workspaceId, found.case_id))) throw notFound('Individual');
    // read again under the lock: address and banking_information merge into what is stored now, not
    // into what was read before another request's change committed (a lost update)
    const current = await findInLiveCase(trx, 'individuals', workspaceId, found.id, { forUpdate: true });
    if (!current) throw notFound('Individual');
    const set: Record<string, unknown> = {
      ...individualUpdateSet(input),
      updated_at: sql`now()`,
      last_activity_at: sql`now()`,
    };
    if (input.address)
      set.address = JSON.stringify(mergeAddress(fullAddress(current.address), input.address));
    if (input.banking_information !== undefined) {
      const banking = bankingValue(current.banking_information, input.banking_information);
      set.banking_information = banking ? JSON.stringify(banking) : null;
    }
    // a field given here no longer holds the registry's value (GET /v1/cases/{id}?property_origin=true)
    const origin = originAfterUpdate(input);
    if (origin) set.property_origin = origin;
    const row = await trx
      .updateTable('individuals')
      .set(set)
      .where('id', '=', found.id)
      .returningAll()
      .executeTakeFirst();
    // deleted (or its case deleted) since it was looked up: gone, not a server error
    if (!row) throw notFound('Individual');
    await touchCase(trx, row.case_id);
    const individual = await individualView(trx, ctx, row);
    await recordEvents(trx, workspaceId, [
      { type: 'Individual.Updated', sub_event: subEvent, case_id: row.case_id, payload: { individual } },
    ]);
    // the case's template follows: an individual that became a target (a flag, a role, relevant
    // again) gets the checks it lacks, as one added later (a refusal, e.g. the check limit, undoes
    // the whole update)
    const templated = await ctx.hooks.afterCaseEntitiesChanged?.(trx, workspaceId, row.case_id, {
      before: current,
      after: row,
    });
    // the checks of an entity not relevant do not count in the case's flags
    if (input.is_relevant !== undefined) {
      await ctx.hooks.afterCaseCountedChecksChanged?.(trx, workspaceId, row.case_id);
    }
    return templated ? individualView(trx, ctx, row) : individual;
  });
}
