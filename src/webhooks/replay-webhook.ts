import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { buildDeliveries, insertDeliveries, type OutboxEvent } from './build-deliveries.ts';
import { findWebhook } from './repository.ts';

export const MAX_REPLAY = 10_000;

/**
 * Re-sends to one webhook every event of its workspace recorded in [since, until) that it
 * subscribes to now, as new deliveries (new `webhook-id`, same `context.event_id`), in event
 * order. At most MAX_REPLAY events per call: replay again from the last one's date for more.
 */
export async function replayWebhook(
  db: Db,
  workspaceId: string,
  id: string,
  since: string,
  until?: string,
): Promise<{ webhook_id: string; deliveries: number }> {
  const hook = await findWebhook(db, workspaceId, id);
  if (!hook) throw notFound('Webhook');
  // an empty or reversed window is a mistake to say, not a replay of nothing
  if (until && new Date(until).getTime() <= new Date(since).getTime()) {
    throw badRequest('until must be later than since', 'until');
  }
  return db.transaction().execute(async (trx) => {
    const untilSql = until ? sql`and created_at < ${new Date(until)}` : sql``;
    const { rows } = await sql<OutboxEvent>`
      select id, workspace_id, case_id, type, sub_event, payload, created_at from events
      where workspace_id = ${workspaceId} and created_at >= ${new Date(since)} ${untilSql}
      order by seq limit ${MAX_REPLAY}
    `.execute(trx);
    const deliveries = await buildDeliveries(trx, rows, [hook]);
    await insertDeliveries(trx, deliveries);
    return { webhook_id: hook.id, deliveries: deliveries.length };
  });
}
