import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';

/**
 * Deletes a webhook with its deliveries and their logs; nothing more is sent to it (a delivery a
 * worker holds claimed reads its webhook again before its attempt: engine.ts). The delivery
 * loop locks a delivery, then updates its webhook: the deliveries are deleted first, in the same
 * order, so a delete during a delivery waits for it instead of deadlocking with it (PostgreSQL
 * aborted one of the two: a 500).
 */
export async function deleteWebhook(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('webhook_deliveries')
      .where('workspace_id', '=', workspaceId)
      .where('webhook_id', '=', id)
      .execute();
    const res = await trx
      .deleteFrom('webhooks')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!res.numDeletedRows) throw notFound('Webhook');
  });
}
