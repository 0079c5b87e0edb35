import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';

/** Webhook logs are kept 30 days (delivered, failed, or still waiting for an offline webhook). */
export const LOG_RETENTION_DAYS = 30;

export async function pruneWebhookLogs(db: Db): Promise<number> {
  const res = await db
    .deleteFrom('webhook_deliveries')
    .where('created_at', '<', sql<Date>`now() - cast(${`${LOG_RETENTION_DAYS} days`} as interval)`)
    .where('status', 'in', ['delivered', 'failed', 'pending_offline'])
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
