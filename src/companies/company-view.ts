import type { AppContext } from '../app-context.ts';
import type { Db } from '../db/connect.ts';
import type { CompanyRow } from '../db/schema.ts';
import { relationsFrom } from '../relations/repository.ts';
import { presentCompany } from './present.ts';

/** The company as the API returns it: with its relations and its checks' envelopes. */
export async function companyView(db: Db, ctx: Pick<AppContext, 'hooks'>, row: CompanyRow) {
  const [relations, checks] = await Promise.all([
    relationsFrom(db, row.id),
    ctx.hooks.loadEntityChecks ? ctx.hooks.loadEntityChecks(db, row.id) : Promise.resolve([]),
  ]);
  return presentCompany(row, relations, checks);
}
