import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import type { RelationRow } from '../db/schema.ts';
import { ApiError, type ErrorDetail } from '../http/errors.ts';
import { ascendingIds } from '../shared/ascending-ids.ts';
import type { ImplicitRelationCreate } from './schemas.ts';

type ImplicitRelation = Static<typeof ImplicitRelationCreate>;

/**
 * Inserts the relations given with a new company or individual (created against a case_id).
 * `to_company_id` defaults to the main company; every target must be a company of the same case.
 */
export async function addEntityRelations(
  trx: Db,
  scope: { workspaceId: string; caseId: string; mainCompanyId: string | undefined },
  source: { kind: 'company' | 'individual'; id: string },
  relations: ImplicitRelation[],
): Promise<RelationRow[]> {
  if (!relations.length) return [];
  const companyIds = new Set(
    (await trx.selectFrom('companies').select('id').where('case_id', '=', scope.caseId).execute()).map(
      (r) => r.id,
    ),
  );
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  const rows = relations.flatMap((r, i) => {
    const path = `relations[${i}].to_company_id`;
    // ids are read as PostgreSQL reads a uuid: in either case (the rows' ids are lower case)
    const target = r.to_company_id?.toLowerCase() ?? scope.mainCompanyId;
    if (!target) {
      details.push({ path, message: `${path}: the case has no main company to relate to` });
      return [];
    }
    if (!companyIds.has(target)) {
      details.push({ path, message: `${path}: no company ${target} in this case` });
      return [];
    }
    if (target === source.id || seen.has(target)) {
      details.push({
        path,
        message:
          target === source.id
            ? `${path}: a company cannot be related to itself`
            : `${path}: duplicate relation`,
      });
      return [];
    }
    seen.add(target);
    return [
      {
        workspace_id: scope.workspaceId,
        case_id: scope.caseId,
        from_company_id: source.kind === 'company' ? source.id : null,
        from_individual_id: source.kind === 'individual' ? source.id : null,
        to_company_id: target,
        voting_rights_percentage: r.voting_rights_percentage ?? null,
        ownership_percentage: r.ownership_percentage ?? null,
        roles: r.roles ?? [],
        position: r.position ?? null,
      },
    ];
  });
  if (details.length) throw new ApiError(400, details[0].message, details);
  // inserted together (one created_at): read back in the order they were given
  const ids = ascendingIds(rows.length);
  return trx
    .insertInto('relations')
    .values(rows.map((row, i) => ({ ...row, id: ids[i] })))
    .returningAll()
    .execute();
}
