import { findInLiveCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import type { CheckRow, CompanyRow, IndividualRow } from '../db/schema.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
import type { CheckTarget } from './check-type.ts';

/**
 * A check of the workspace whose case is not deleted. `forUpdate` locks its case, then the check:
 * the order every write under a case takes (check first, case second deadlocked with a permanent
 * case delete on PostgreSQL).
 */
export async function findCheck(
  db: Db,
  workspaceId: string,
  id: string,
  forUpdate = false,
): Promise<CheckRow | undefined> {
  if (forUpdate) await lockCaseOfCheck(db, id);
  return findInLiveCase(db, 'checks', workspaceId, id, { forUpdate });
}

/** The check locked for a change (jobs), its case locked first like every write under a case. */
export async function lockCheckById(trx: Db, id: string): Promise<CheckRow | undefined> {
  await lockCaseOfCheck(trx, id);
  return trx.selectFrom('checks').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

async function lockCaseOfCheck(trx: Db, checkId: string): Promise<void> {
  if (!UUID_RE.test(checkId)) return;
  await trx
    .selectFrom('cases')
    .select('id')
    .where('id', '=', (eb) => eb.selectFrom('checks').select('case_id').where('id', '=', checkId))
    .forNoKeyUpdate()
    .execute();
}

/** The company or individual a check targets (any workspace; callers scope by the check). */
export async function loadTarget(
  db: Db,
  check: Pick<CheckRow, 'company_id' | 'individual_id'>,
): Promise<CheckTarget> {
  if (check.individual_id) {
    const row = await db
      .selectFrom('individuals')
      .selectAll()
      .where('id', '=', check.individual_id)
      .executeTakeFirstOrThrow();
    return { kind: 'individual', row: row as IndividualRow };
  }
  const row = await db
    .selectFrom('companies')
    .selectAll()
    .where('id', '=', check.company_id as string)
    .executeTakeFirstOrThrow();
  return { kind: 'company', row: row as CompanyRow };
}

/** Envelopes of a case's checks, grouped by their target entity. */
export async function checkEnvelopesByEntity(db: Db, caseId: string, excludeInternal: boolean) {
  let q = db.selectFrom('checks').selectAll().where('case_id', '=', caseId);
  if (excludeInternal) q = q.where('is_internal', '=', false);
  return q.orderBy('created_at').orderBy('id').execute();
}
