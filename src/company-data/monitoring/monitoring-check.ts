import type { AppContext } from '../../app-context.ts';
import { createCheckInTransaction } from '../../checks/engine/create-check.ts';
import { companyMonitoringCheck } from '../../checks/types/company_monitoring/index.ts';
import type { Db } from '../../db/connect.ts';
import type { CheckRow } from '../../db/schema.ts';

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
