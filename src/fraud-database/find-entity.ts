import { findCompany } from '../companies/repository.ts';
import type { Db } from '../db/connect.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { findIndividual } from '../individuals/repository.ts';
import type { FraudEntity } from './identifiers.ts';

/** The entity a body names by exactly one of individual_id / company_id; another workspace's: 404. */
export async function findBodyEntity(
  db: Db,
  workspaceId: string,
  body: { individual_id?: string; company_id?: string },
): Promise<FraudEntity> {
  if (body.individual_id && body.company_id)
    throw badRequest('Give individual_id or company_id, not both', 'company_id');
  if (body.individual_id) {
    const row = await findIndividual(db, workspaceId, body.individual_id);
    if (!row) throw notFound('Individual', 'individual_id');
    return { kind: 'individual', row };
  }
  if (body.company_id) {
    const row = await findCompany(db, workspaceId, body.company_id);
    if (!row) throw notFound('Company', 'company_id');
    return { kind: 'company', row };
  }
  throw badRequest('individual_id or company_id is required', 'individual_id');
}
