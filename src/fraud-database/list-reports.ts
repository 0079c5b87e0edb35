import type { AppContext } from '../app-context.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { presentFraudReport } from './present.ts';

export const fraudReportListSpec: ListSpec = {
  filters: {
    individual_id: { kind: 'uuid' },
    company_id: { kind: 'uuid' },
    created_at: { kind: 'date' },
  },
  sort: ['created_at'],
  idColumn: 'id',
};

/** The workspace's own reports (nobody else's), paginated. */
export async function listFraudReports(ctx: AppContext, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(fraudReportListSpec, query);
  const base = ctx.db.selectFrom('fraud_reports').where('workspace_id', '=', workspaceId);
  const { rows, pagination } = await fetchPage(fraudReportListSpec, parsed, base, (qb) => qb.selectAll());
  return { data: rows.map(presentFraudReport), pagination };
}
