import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { WebhookRow } from '../db/schema.ts';

export async function findWebhook(db: Db, workspaceId: string, id: string): Promise<WebhookRow | undefined> {
  return db
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function lockWebhook(trx: Db, workspaceId: string, id: string): Promise<WebhookRow | undefined> {
  return trx
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/** Deliveries kept while offline wait for their next attempt again. */
export async function resumeOfflineDeliveries(trx: Db, webhookId: string): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: sql`now()`, updated_at: sql`now()` })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending_offline')
    .execute();
}

/** Deliveries waiting for an attempt are kept aside while the webhook is offline. */
export async function parkPendingDeliveries(trx: Db, webhookId: string): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending_offline', updated_at: sql`now()` })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .execute();
}
