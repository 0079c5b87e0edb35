import type { AppContext } from '../app-context.ts';
import type { Db } from '../db/connect.ts';
import { iso } from '../shared/time.ts';
import { hashIdentifier, hashSecret } from './hashing.ts';
import {
  entityIdentifiers,
  type FraudEntity,
  IDENTIFIER_KINDS,
  legacyIdentifiers,
  variantIdentifiers,
} from './identifiers.ts';
import { findMatchingHashes } from './repository.ts';

/** One report holding identifiers of the searched entity: which kinds, when, and whether it is ours. */
export interface FraudMatch {
  identifier_kinds: string[];
  reported_at: string;
  reported_by_this_workspace: boolean;
}

/**
 * Searches the fraud list for an entity: hashes its normalised identifiers and finds the reports
 * visible to the workspace (its own; and, when `shares`, those of every sharing workspace). A
 * match says which identifier kinds matched and when the report was made, nothing else: not the
 * reporting workspace, its case, entity, reason or any value.
 */
export async function searchFraudList(
  ctx: AppContext,
  db: Db,
  workspaceId: string,
  shares: boolean,
  entity: FraudEntity,
): Promise<{ searched: string[]; matches: FraudMatch[] }> {
  const ids = entityIdentifiers(entity);
  if (!ids.length) return { searched: [], matches: [] };
  const secret = await hashSecret(ctx, db);
  const hashes = [...ids, ...variantIdentifiers(entity), ...legacyIdentifiers(entity)].map((i) =>
    hashIdentifier(secret, i),
  );
  const rows = await findMatchingHashes(db, workspaceId, shares, hashes);
  const byReport = new Map<string, FraudMatch>();
  for (const r of rows) {
    let m = byReport.get(r.report_id);
    if (!m) {
      m = {
        identifier_kinds: [],
        // another workspace's report is dated to the day (its midnight, UTC): the exact instant
        // would let a workspace tie the report to another's activity it may know of
        reported_at: r.own ? iso(r.created_at) : `${iso(r.created_at).slice(0, 10)}T00:00:00.000Z`,
        reported_by_this_workspace: r.own,
      };
      byReport.set(r.report_id, m);
    }
    if (!m.identifier_kinds.includes(r.kind)) m.identifier_kinds.push(r.kind);
  }
  const order = (k: string) => IDENTIFIER_KINDS.indexOf(k as (typeof IDENTIFIER_KINDS)[number]);
  const matches = [...byReport.values()];
  for (const m of matches) m.identifier_kinds.sort((a, b) => order(a) - order(b));
  return { searched: ids.map((i) => i.kind), matches };
}
