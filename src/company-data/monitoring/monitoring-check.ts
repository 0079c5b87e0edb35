import type { AppContext } from '../../app-context.ts';
import { createCheckInTransaction } from '../../checks/engine/create-check.ts';
import { companyMonitoringCheck } from '../../checks/types/company_monitoring/index.ts';
import type { Db } from '../../db/connect.ts';
import type { CheckRow } from '../../db/schema.ts';
import { getSettings } from '../../settings/repository.ts';

/** Whether the workspace monitors its registry-linked companies (`checks.company_monitoring.enabled`). */
export async function monitoringEnabled(db: Db, workspaceId: string): Promise<boolean> {
  const settings = await getSettings(db, workspaceId);
  const cm = (settings.checks as Record<string, { enabled?: boolean } | undefined>).company_monitoring;
  return cm?.enabled === true;
}

/** The company's company_monitoring check, if it has one. */
export function findMonitoringCheck(db: Db, companyId: string): Promise<CheckRow | undefined> {
  return db
    .selectFrom('checks')
    .selectAll()
    .where('company_id', '=', companyId)
    .where('type', '=', 'company_monitoring')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * Creates the company's company_monitoring check through the engine (in the caller's transaction);
 * `bySystem` when a monitoring pass starts it rather than the request that linked the company.
 */
export function createMonitoringCheck(
  ctx: AppContext,
  trx: Db,
  workspaceId: string,
  companyId: string,
  bySystem = false,
): Promise<CheckRow> {
  return createCheckInTransaction(
    ctx,
    trx,
    workspaceId,
    companyMonitoringCheck,
    { company_id: companyId },
    { bySystem },
  );
}

/**
 * After registry-linked companies were created (same transaction): each gets its monitoring check
 * when the workspace monitors companies. True when any was created.
 */
export async function startMonitoring(
  ctx: AppContext,
  trx: Db,
  workspaceId: string,
  companyIds: string[],
): Promise<boolean> {
  if (!companyIds.length || !(await monitoringEnabled(trx, workspaceId))) return false;
  for (const id of companyIds) await createMonitoringCheck(ctx, trx, workspaceId, id);
  return true;
}
