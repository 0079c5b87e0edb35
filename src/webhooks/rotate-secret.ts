import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { presentWebhook } from './present.ts';
import { lockWebhook } from './repository.ts';
import { generateSecret } from './signature.ts';

/**
 * Replaces the secret with a new generated one. For `graceSeconds` every delivery carries two
 * signatures (new and previous, space-separated in `webhook-signature`), so receivers can switch
 * without dropping a message.
 */
export async function rotateWebhookSecret(db: Db, workspaceId: string, id: string, graceSeconds: number) {
  return db.transaction().execute(async (trx) => {
    const found = await lockWebhook(trx, workspaceId, id);
    if (!found) throw notFound('Webhook');
    const row = await trx
      .updateTable('webhooks')
      .set({
        secret: generateSecret(),
        previous_secret: graceSeconds > 0 ? found.secret : null,
        previous_secret_expires_at: graceSeconds > 0 ? new Date(Date.now() + graceSeconds * 1000) : null,
        updated_at: sql`now()`,
      })
      .where('id', '=', found.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentWebhook(row);
  });
}
