import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import { ApiError } from '../../http/errors.ts';

export const CHECK_LIMIT_REACHED = 'CHECK_LIMIT_REACHED';

const MONTH = sql<string>`to_char(now() at time zone 'UTC', 'YYYY-MM')`;

/** The workspace setting that refuses the check: named in `details` so a client knows what to raise. */
export const CHECK_LIMIT_SETTING = 'settings.checks.limit';

function limitReached(limit: number): ApiError {
  const message = `Check limit reached: this workspace may create ${limit} checks per calendar month (UTC)`;
  return new ApiError(400, message, [{ path: CHECK_LIMIT_SETTING, message }], CHECK_LIMIT_REACHED);
}

/** `settings.checks.limit` as a number, or null (no limit). */
export const checkLimitOf = (checks: Record<string, unknown>): number | null =>
  typeof checks.limit === 'number' ? checks.limit : null;

/**
 * Refuses early (before any provider work) a check the month's counter already forbids. Only a
 * shortcut: `countCheck` decides, under the counter row's lock.
 */
export async function assertUnderCheckLimit(trx: Db, workspaceId: string, limit: number | null) {
  if (limit === null) return;
  if (limit <= 0) throw limitReached(limit);
  const row = await trx
    .selectFrom('check_counts')
    .select('count')
    .where('workspace_id', '=', workspaceId)
    .where('month', '=', MONTH)
    .executeTakeFirst();
  if ((row?.count ?? 0) >= limit) throw limitReached(limit);
}

/**
 * Counts one check created this month in the caller's transaction (rolled back with it, so a
 * refused request counts nothing). The upsert's guard is evaluated on the row's latest version
 * under its lock, so concurrent creations never pass the limit: past it, a 400
 * CHECK_LIMIT_REACHED. `force` counts without refusing (a check the system starts on its own).
 * Every check is counted, limit or not, so setting a limit mid-month starts from the true count.
 */
export async function countCheck(
  trx: Db,
  workspaceId: string,
  limit: number | null,
  opts: { force?: boolean } = {},
): Promise<void> {
  const guarded = limit !== null && !opts.force;
  if (guarded && limit <= 0) throw limitReached(limit);
  const row = await trx
    .insertInto('check_counts')
    .values({ workspace_id: workspaceId, month: MONTH, count: 1 })
    .onConflict((oc) => {
      const update = oc
        .columns(['workspace_id', 'month'])
        .doUpdateSet({ count: sql<number>`check_counts.count + 1` });
      return guarded ? update.where('check_counts.count', '<', limit) : update;
    })
    .returning('count')
    .executeTakeFirst();
  if (!row) throw limitReached(limit as number);
}
