import type { Db } from '../../db/connect.ts';
import { badRequest } from '../../http/errors.ts';
import { findSearchRef } from '../repository.ts';

/**
 * Refuses a case body whose `search_ref`s resolve to one registry record more than once. Each search
 * gives new refs for the same record, so comparing the ref strings is not enough: two refs of one
 * record made the company twice in the case, both linked to the registry, with two fetches counted.
 * Checked from the refs' stored records, before any fetch is counted. A ref that is unknown,
 * foreign or expired is left to the fetch, which names it.
 */
export async function assertOneCompanyPerRecord(
  db: Db,
  workspaceId: string,
  companies: readonly { search_ref?: string }[],
): Promise<void> {
  const seen = new Map<string, number>();
  for (const [i, c] of companies.entries()) {
    if (c.search_ref === undefined) continue;
    const row = await findSearchRef(db, workspaceId, c.search_ref);
    if (!row) continue;
    const key = JSON.stringify([row.vendor, row.country, row.vendor_ref]);
    const first = seen.get(key);
    if (first !== undefined) {
      throw badRequest(
        `companies[${i}].search_ref: the same registry company as companies[${first}].search_ref (another search's ref for the same record); a registry company is one company of the case`,
        `companies[${i}].search_ref`,
      );
    }
    seen.set(key, i);
  }
}
