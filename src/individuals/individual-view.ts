import type { AppContext } from '../app-context.ts';
import type { Db } from '../db/connect.ts';
import type { IndividualRow } from '../db/schema.ts';
import { relationsFrom } from '../relations/repository.ts';
import { presentIndividual } from './present.ts';

/** The individual as the API returns it: with its relations and its checks' envelopes. */
export async function individualView(db: Db, ctx: Pick<AppContext, 'hooks'>, row: IndividualRow) {
  const [relations, checks] = await Promise.all([
    relationsFrom(db, row.id),
    ctx.hooks.loadEntityChecks ? ctx.hooks.loadEntityChecks(db, row.id) : Promise.resolve([]),
  ]);
  return presentIndividual(row, relations, checks);
}
