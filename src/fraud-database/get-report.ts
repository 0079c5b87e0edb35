import type { AppContext } from '../app-context.ts';
import { notFound } from '../http/errors.ts';
import { presentFraudReport } from './present.ts';
import { findReport } from './repository.ts';

export async function getFraudReport(ctx: AppContext, workspaceId: string, id: string) {
  const row = await findReport(ctx.db, workspaceId, id);
  if (!row) throw notFound('Fraud report');
  return presentFraudReport(row);
}
