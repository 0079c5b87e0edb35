import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import { updateIfChanged } from '../db/update-if-changed.ts';
import { notFound } from '../http/errors.ts';
import { presentWebhook } from './present.ts';
import { lockWebhook, parkPendingDeliveries, resumeOfflineDeliveries } from './repository.ts';
import type { WebhookUpdate } from './schemas.ts';
import { assertSecret, assertSignatureHeader } from './signature.ts';
import { validateWebhookUrl } from './validate-url.ts';

/**
 * Updates a webhook. Setting an offline webhook `online` clears its failing streak and resumes the
 * deliveries kept while it was offline; setting an online one `offline` keeps its pending deliveries
 * aside. The status it already has changes nothing (an online webhook keeps its failing streak). A new `secret`
 * replaces the old one at once (use rotate-secret for a grace period).
 */
export async function updateWebhook(
  db: Db,
  workspaceId: string,
  id: string,
  input: Static<typeof WebhookUpdate>,
  allowPrivate: boolean,
) {
  const url = input.url !== undefined ? await validateWebhookUrl(input.url, allowPrivate) : undefined;
  return db.transaction().execute(async (trx) => {
    const found = await lockWebhook(trx, workspaceId, id);
    if (!found) throw notFound('Webhook');
    const mode = input.signature ?? found.signature;
    assertSignatureHeader(input.signature_header, mode);
    const set: Record<string, unknown> = {};
    if (input.name !== undefined) set.name = input.name;
    if (input.type !== undefined) set.type = input.type;
    if (url !== undefined) set.url = url;
    if (input.events !== undefined) set.events = [...new Set(input.events)];
    if (input.signature !== undefined) set.signature = input.signature;
    if (input.signature_header !== undefined)
      set.signature_header = input.signature_header?.toLowerCase() ?? null;
    // leaving hmac_sha256_hex forgets its header: nothing hidden comes back if the mode does
    if (mode !== 'hmac_sha256_hex') set.signature_header = null;
    // checked when it changes: a webhook whose secret predates a rule (a non-ASCII one) still takes
    // a PATCH repeating the webhook as GET shows it
    if (input.secret !== undefined && input.secret !== found.secret) {
      assertSecret(input.secret);
      set.secret = input.secret;
      set.previous_secret = null;
      set.previous_secret_expires_at = null;
    }
    // the status it already has changes nothing: an online webhook given `online` keeps its failing
    // streak (a reset the client did not ask for, which would move updated_at). Coming back online
    // from offline is the change that clears the streak and resumes the kept deliveries.
    if (input.status !== undefined && input.status !== found.status) {
      set.status = input.status;
      if (input.status === 'online') {
        set.failure_streak = 0;
        set.failure_streak_started_at = null;
        await resumeOfflineDeliveries(trx, found.id);
      } else {
        await parkPendingDeliveries(trx, found.id);
      }
    }
    // the values it already has change nothing: updated_at stays (a no-op answers the webhook as is)
    const row = await updateIfChanged(trx, 'webhooks', found.id, set, { updated_at: sql`now()` });
    return presentWebhook(row ?? found);
  });
}
