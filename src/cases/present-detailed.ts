import type { CheckEnvelopeOut } from '../checks/envelope-schema.ts';
import { presentCompany } from '../companies/present.ts';
import { ordersByCompany } from '../company-data/document-orders/present.ts';
import type { CaseRow } from '../db/schema.ts';
import { presentIndividual } from '../individuals/present.ts';
import { relationsBySource } from '../relations/present.ts';
import { presentCase } from './present.ts';
import type { CaseGraph } from './repository.ts';

/** The detailed case: the case with its companies and individuals, their relations and checks. */
export function presentDetailedCase(
  c: CaseRow,
  graph: CaseGraph,
  checksByEntity: Map<string, CheckEnvelopeOut[]> = new Map(),
) {
  const bySource = relationsBySource(graph.relations);
  const orders = ordersByCompany(graph.document_orders ?? []);
  return {
    ...presentCase(c),
    companies: graph.companies.map((co) =>
      presentCompany(co, bySource.get(co.id) ?? [], checksByEntity.get(co.id) ?? [], orders.get(co.id) ?? []),
    ),
    individuals: graph.individuals.map((i) =>
      presentIndividual(i, bySource.get(i.id) ?? [], checksByEntity.get(i.id) ?? []),
    ),
    controls: [],
    assignee: null,
    client_portal: null,
  };
}
