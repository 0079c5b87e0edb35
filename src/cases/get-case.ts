import type { CheckEnvelopeOut } from '../checks/envelope-schema.ts';
import { withDataLineage } from '../company-data/lineage/data-lineage.ts';
import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { nestedUserById } from '../users/nested-user.ts';
import { presentDetailedCase } from './present-detailed.ts';
import { findCase, loadCaseGraph } from './repository.ts';

export interface GetCaseOptions {
  includeNotRelevant: boolean;
  excludeInternalChecks: boolean;
  /** Say per property of companies and individuals whether it came from the registry (`data_lineage`). */
  propertyOrigin?: boolean;
}

/** Loads checks (envelopes) per entity for a case; provided by the checks module. */
export type CheckEnvelopeLoader = (
  db: Db,
  caseId: string,
  opts: GetCaseOptions,
) => Promise<Map<string, CheckEnvelopeOut[]>>;

export async function getCase(
  db: Db,
  workspaceId: string,
  idOrExternal: string,
  opts: GetCaseOptions,
  loadChecks?: CheckEnvelopeLoader,
) {
  // One snapshot: a check's change and the case flags it moves are written in one transaction, and
  // reading the case row, its graph and its checks in separate statements could show one without the
  // other. Repeatable read makes the three reads agree; read only keeps it cheap.
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx) => {
      const c = await findCase(trx, workspaceId, idOrExternal);
      if (!c) throw notFound('Case');
      // sequential: a transaction is one connection
      const graph = await loadCaseGraph(trx, c.id, opts.includeNotRelevant);
      const checks = loadChecks ? await loadChecks(trx, c.id, opts) : new Map<string, CheckEnvelopeOut[]>();
      const assignee = await nestedUserById(trx, workspaceId, c.assignee_id);
      const detailed = presentDetailedCase(c, graph, checks, assignee);
      return opts.propertyOrigin ? withDataLineage(detailed, graph) : detailed;
    });
}
