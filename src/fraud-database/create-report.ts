import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { badRequest, conflict } from '../http/errors.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { findBodyEntity } from './find-entity.ts';
import { hashIdentifier, hashSecret } from './hashing.ts';
import { entityIdentifiers, variantIdentifiers } from './identifiers.ts';
import { presentFraudReport } from './present.ts';
import { findEntityReport, insertReport } from './repository.ts';
import type { FraudReportCreate } from './schemas.ts';

/**
 * Reports an entity of one of the workspace's cases to the fraud list: the keyed hashes of its
 * normalised identifiers, as they are now, go into the list (never the values). Any workspace may
 * report; others see its reports only while it shares (docs/fraud-database.md). An entity without
 * any identifier the list holds is a 400; an entity already reported by this workspace, a 409.
 */
export async function createFraudReport(
  ctx: AppContext,
  workspaceId: string,
  body: Static<typeof FraudReportCreate>,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const secret = await hashSecret(ctx, trx);
    const entity = await findBodyEntity(trx, workspaceId, body);
    const field = entity.kind === 'individual' ? 'individual_id' : 'company_id';
    const ids = entityIdentifiers(entity);
    if (!ids.length) {
      throw badRequest(
        entity.kind === 'individual'
          ? 'The individual has nothing the fraud list holds: a valid email, phone_number or banking_information.iban, or a birth_date with the name'
          : 'The company has nothing the fraud list holds: a registration_number with its country, or a valid banking_information.iban',
        field,
      );
    }
    const existing = await findEntityReport(trx, workspaceId, field, entity.row.id);
    if (existing) throw conflict(`This ${entity.kind} is already reported (report ${existing.id})`, field);
    const hashes = [...ids, ...variantIdentifiers(entity)].map((i) => ({
      kind: i.kind,
      hash: hashIdentifier(secret, i),
    }));
    try {
      const row = await insertReport(
        trx,
        {
          id: randomUUID(),
          workspace_id: workspaceId,
          individual_id: entity.kind === 'individual' ? entity.row.id : null,
          company_id: entity.kind === 'company' ? entity.row.id : null,
          reason: body.reason,
          identifier_kinds: ids.map((i) => i.kind),
        },
        hashes,
      );
      return presentFraudReport(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`This ${entity.kind} is already reported`, field);
      throw err;
    }
  });
}
