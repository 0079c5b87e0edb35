import type { Db } from '../db/connect.ts';
import { SUBSCRIBABLE } from '../events/catalog.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { presentWebhook } from './present.ts';
import { WEBHOOK_STATUSES, WEBHOOK_TYPES } from './schemas.ts';

export const webhookListSpec: ListSpec = {
  filters: {
    name: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] },
    created_at: { kind: 'date' },
    updated_at: { kind: 'date' },
    status: { kind: 'set', values: WEBHOOK_STATUSES, ops: ['eq', 'not_eq'] },
    type: { kind: 'set', values: WEBHOOK_TYPES, ops: ['eq', 'not_eq'] },
    url: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] },
    // what a subscription may hold: any other value would match no webhook
    events: { kind: 'array', values: SUBSCRIBABLE },
  },
  sort: ['created_at', 'name', 'status', 'type', 'updated_at', 'url'],
  idColumn: 'id',
  // the reference sorts by updated_at by default
};

export async function listWebhooks(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(webhookListSpec, query);
  const base = db.selectFrom('webhooks').where('workspace_id', '=', workspaceId);
  const { rows, pagination } = await fetchPage(webhookListSpec, parsed, base, (qb) => qb.selectAll());
  return {
    data: rows.map(presentWebhook),
    pagination,
  };
}
