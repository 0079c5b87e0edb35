import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { presentWebhook } from './present.ts';
import { findWebhook } from './repository.ts';

export async function getWebhook(db: Db, workspaceId: string, id: string) {
  const row = await findWebhook(db, workspaceId, id);
  if (!row) throw notFound('Webhook');
  return presentWebhook(row);
}
