import type { AppContext } from '../app-context.ts';
import { notFound } from '../http/errors.ts';
import { deleteReport } from './repository.ts';

/** Withdraws a report: its hashes leave the list at once, so no later check matches them. */
export async function deleteFraudReport(ctx: AppContext, workspaceId: string, id: string): Promise<void> {
  if (!(await deleteReport(ctx.db, workspaceId, id))) throw notFound('Fraud report');
}
