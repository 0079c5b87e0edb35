import type { AppContext } from '../app-context.ts';
import { presentDocumentOrder } from '../company-data/document-orders/present.ts';
import { documentOrdersOfCompany } from '../company-data/document-orders/repository.ts';
import type { Db } from '../db/connect.ts';
import type { CompanyRow } from '../db/schema.ts';
import { relationsFrom } from '../relations/repository.ts';
import { presentCompany } from './present.ts';

/** The company as the API returns it: with its relations, its checks' envelopes and its document orders. */
export async function companyView(db: Db, ctx: Pick<AppContext, 'hooks'>, row: CompanyRow) {
  const [relations, checks, orders] = await Promise.all([
    relationsFrom(db, row.id),
    ctx.hooks.loadEntityChecks ? ctx.hooks.loadEntityChecks(db, row.id) : Promise.resolve([]),
    documentOrdersOfCompany(db, row.id),
  ]);
  return presentCompany(row, relations, checks, orders.map(presentDocumentOrder));
}
