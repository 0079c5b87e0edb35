import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';

/** Deletes a webhook with its deliveries and their logs; nothing more is sent to it. */
export async function deleteWebhook(db: Db, workspaceId: string, id: string): Promise<void> {
  const res = await db
    .deleteFrom('webhooks')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!res.numDeletedRows) throw notFound('Webhook');
}
