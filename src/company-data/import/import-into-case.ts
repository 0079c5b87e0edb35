import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import { presentCompany } from '../../companies/present.ts';
import type { CompanyWritable } from '../../companies/schemas.ts';
import { companyInsertRow } from '../../companies/to-row.ts';
import type { Db } from '../../db/connect.ts';
import type { NewRelation } from '../../db/schema.ts';
import { recordEvents } from '../../events/record-event.ts';
import { presentIndividual } from '../../individuals/present.ts';
import type { IndividualWritable } from '../../individuals/schemas.ts';
import { individualInsertRow } from '../../individuals/to-row.ts';
import type { CompanyProfile } from '../schemas.ts';
import { type ImportedRelation, relatedFromProfile } from './related.ts';

/**
 * `import_related` for a company created in an existing case (POST /v1/companies), in its
 * transaction: the profile's people and companies are written related to that company, with their
 * field origins, and their `Individual.Created` / `Company.Created` events recorded.
 */
export async function importRelatedIntoCase(
  trx: Db,
  scope: { workspaceId: string; caseId: string; companyId: string },
  profile: CompanyProfile,
): Promise<void> {
  const related = relatedFromProfile(profile);
  const relations: NewRelation[] = [];
  const relate = (from: { company?: string; individual?: string }, r: ImportedRelation) =>
    relations.push({
      id: randomUUID(),
      workspace_id: scope.workspaceId,
      case_id: scope.caseId,
      from_company_id: from.company ?? null,
      from_individual_id: from.individual ?? null,
      to_company_id: scope.companyId,
      roles: r.roles,
      ownership_percentage: r.ownership_percentage,
      voting_rights_percentage: r.voting_rights_percentage,
      position: r.position,
    });
  const companyRows = related.companies.map((c) => {
    const id = randomUUID();
    relate({ company: id }, c.relation);
    return {
      ...companyInsertRow(c.fields as Static<typeof CompanyWritable>, {
        id,
        workspaceId: scope.workspaceId,
        caseId: scope.caseId,
        type: 'affiliated',
      }),
      property_origin: JSON.stringify(c.origin),
    };
  });
  const individualRows = related.individuals.map((p) => {
    const id = randomUUID();
    relate({ individual: id }, p.relation);
    return {
      ...individualInsertRow(p.fields as Static<typeof IndividualWritable>, {
        id,
        workspaceId: scope.workspaceId,
        caseId: scope.caseId,
      }),
      property_origin: JSON.stringify(p.origin),
    };
  });
  const companies = companyRows.length
    ? await trx.insertInto('companies').values(companyRows).returningAll().execute()
    : [];
  const individuals = individualRows.length
    ? await trx.insertInto('individuals').values(individualRows).returningAll().execute()
    : [];
  const relationRows = relations.length
    ? await trx.insertInto('relations').values(relations).returningAll().execute()
    : [];
  const relationOf = (id: string) =>
    relationRows.filter((r) => r.from_company_id === id || r.from_individual_id === id);
  await recordEvents(trx, scope.workspaceId, [
    ...companies.map((c) => ({
      type: 'Company.Created',
      case_id: scope.caseId,
      payload: { company: presentCompany(c, relationOf(c.id)) },
    })),
    ...individuals.map((i) => ({
      type: 'Individual.Created',
      case_id: scope.caseId,
      payload: { individual: presentIndividual(i, relationOf(i.id)) },
    })),
  ]);
}
