import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import { badRequest } from '../http/errors.ts';
import { lockWorkspaceRow } from '../workspaces/repository.ts';
import { presentWebhook } from './present.ts';
import { MAX_WEBHOOKS_PER_WORKSPACE, type WebhookCreate } from './schemas.ts';
import { assertSecret, assertSignatureHeader, generateSecret } from './signature.ts';
import { validateWebhookUrl } from './validate-url.ts';

export async function createWebhook(
  db: Db,
  workspaceId: string,
  input: Static<typeof WebhookCreate>,
  allowPrivate: boolean,
) {
  const url = await validateWebhookUrl(input.url, allowPrivate);
  assertSignatureHeader(input.signature_header, input.signature ?? 'standard_webhooks');
  if (input.secret !== undefined) assertSecret(input.secret);
  return db.transaction().execute(async (trx) => {
    // serialises creations of one workspace, so the limit holds under concurrency
    await lockWorkspaceRow(trx, workspaceId);
    const { n } = await trx
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_WEBHOOKS_PER_WORKSPACE) {
      throw badRequest(`A workspace can have at most ${MAX_WEBHOOKS_PER_WORKSPACE} webhooks`);
    }
    const row = await trx
      .insertInto('webhooks')
      .values({
        id: randomUUID(),
        workspace_id: workspaceId,
        name: input.name ?? new URL(url).host,
        status: input.status ?? 'online',
        type: input.type ?? 'user',
        url,
        events: [...new Set(input.events)],
        secret: input.secret ?? generateSecret(),
        signature: input.signature ?? 'standard_webhooks',
        signature_header: input.signature_header?.toLowerCase() ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentWebhook(row);
  });
}
