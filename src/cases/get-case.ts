import type { CheckEnvelopeOut } from '../checks/envelope-schema.ts';
import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { presentDetailedCase } from './present-detailed.ts';
import { findCase, loadCaseGraph } from './repository.ts';

export interface GetCaseOptions {
  includeNotRelevant: boolean;
  excludeInternalChecks: boolean;
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
  const c = await findCase(db, workspaceId, idOrExternal);
  if (!c) throw notFound('Case');
  const [graph, checks] = await Promise.all([
    loadCaseGraph(db, c.id, opts.includeNotRelevant),
    loadChecks ? loadChecks(db, c.id, opts) : Promise.resolve(new Map<string, CheckEnvelopeOut[]>()),
  ]);
  return presentDetailedCase(c, graph, checks);
}
