import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { conflict, notFound } from '../http/errors.ts';
import { attemptsOf } from './list-webhook-logs.ts';
import { presentLog } from './present.ts';

/**
 * Manual retry of one delivery (whatever its state but `sending`): its next attempt, typed
 * `manual_retry`, is made now with the same `webhook-id` and `event_id`. The webhook must be online.
 */
export async function retryWebhookLog(db: Db, workspaceId: string, id: string) {
  const row = await db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('webhook_deliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .selectAll('webhook_deliveries')
      .select(['webhooks.status as webhook_status', 'webhooks.url as endpoint'])
      .where('webhook_deliveries.workspace_id', '=', workspaceId)
      .where('webhook_deliveries.id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!found) throw notFound('Webhook log');
    if (found.webhook_status !== 'online') throw conflict('The webhook is offline: set it online first');
    if (found.status === 'sending') throw conflict('An attempt of this delivery is in progress');
    const updated = await trx
      .updateTable('webhook_deliveries')
      .set({
        status: 'pending',
        next_attempt_type: 'manual_retry',
        next_attempt_at: sql`now()`,
        updated_at: sql`now()`,
      })
      .where('id', '=', found.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...updated, endpoint: found.endpoint };
  });
  const attempts = await attemptsOf(db, [row.id]);
  return presentLog(row, row.endpoint, attempts.get(row.id) ?? []);
}
