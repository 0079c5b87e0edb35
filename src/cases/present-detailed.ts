import type { CheckEnvelopeOut } from '../checks/envelope-schema.ts';
import { presentCompany } from '../companies/present.ts';
import { ordersByCompany } from '../company-data/document-orders/present.ts';
import type { CaseRow } from '../db/schema.ts';
import { presentIndividual } from '../individuals/present.ts';
import { relationsBySource } from '../relations/present.ts';
import type { NestedUserOut } from '../users/nested-user.ts';
import { presentCase } from './present.ts';
import type { CaseGraph } from './repository.ts';

/**
 * The detailed case: the case with its companies and individuals, their relations and checks,
 * and its assignee as a user.
 */
export function presentDetailedCase(
  c: CaseRow,
  graph: CaseGraph,
  checksByEntity: Map<string, CheckEnvelopeOut[]> = new Map(),
  /** The user `assignee_id` names (see nestedUserById). */
  assignee: NestedUserOut | null = null,
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
    // no case controls exist in vericase (see docs/compatibility.md)
    controls: [],
    assignee,
    client_portal: presentCaseClientPortal(c, graph.client_portal ?? null),
  };
}

/**
 * The portal the case was shared through, with the wait step the contact waits on; null before any
 * link was shared. Portals serve the case's whole business verification: type `KYB`.
 */
export function presentCaseClientPortal(
  c: Pick<CaseRow, 'client_portal_id' | 'client_portal_wait_step_key'>,
  portal: { id: string; name: string } | null,
) {
  if (!c.client_portal_id || !portal || portal.id !== c.client_portal_id) return null;
  return {
    id: portal.id,
    name: portal.name,
    type: 'KYB' as 'KYB' | 'KYC',
    wait_step_key: c.client_portal_wait_step_key,
  };
}
