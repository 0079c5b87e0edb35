import type { Db } from '../../db/connect.ts';
import type { CompanyVendorDataRow } from '../../db/schema.ts';
import { notFound } from '../../http/errors.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../../http/list-query.ts';
import { iso } from '../../shared/time.ts';
import { findCompany } from '../repository.ts';
import { VENDOR_NAMES } from './schemas.ts';

export const vendorDataListSpec: ListSpec = {
  filters: {
    name: { kind: 'set', ops: ['eq', 'not_eq'], values: VENDOR_NAMES },
    fetched_at: { kind: 'date' },
  },
  sort: ['fetched_at', 'name'],
  idColumn: 'id',
  defaultSort: { field: 'fetched_at', desc: false },
};

const present = (r: CompanyVendorDataRow) => ({
  id: r.id,
  company_id: r.company_id,
  name: r.name as (typeof VENDOR_NAMES)[number],
  raw: r.raw,
  fetched_at: iso(r.fetched_at),
});

/** Raw registry data fetched for a company of this workspace, oldest fetch first by default. */
export async function listVendorData(
  db: Db,
  workspaceId: string,
  companyId: string,
  query: Record<string, unknown>,
) {
  const company = await findCompany(db, workspaceId, companyId);
  if (!company) throw notFound('Company');
  const parsed = parseListQuery(vendorDataListSpec, query);
  const base = db
    .selectFrom('company_vendor_data')
    .where('workspace_id', '=', workspaceId)
    .where('company_id', '=', company.id);
  const { rows, pagination } = await fetchPage(vendorDataListSpec, parsed, base, (qb) => qb.selectAll());
  return { data: rows.map(present), pagination };
}
