import type { Db } from '../db/connect.ts';

/**
 * Drops the withdrawn-link hashes (keepWithdrawnLinks) whose link would have expired by `now`:
 * isWithdrawnToken ignores them already, so they serve nothing. Each withdrawal drops its own
 * workspace's; this daily pass drops those of a workspace that withdraws nothing more, so no hash
 * outlives its link by more than a day. Returns how many rows went.
 */
export async function purgeWithdrawnLinks(db: Db, now: Date = new Date()): Promise<number> {
  const deleted = await db
    .deleteFrom('client_portal_withdrawn_links')
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows);
}
