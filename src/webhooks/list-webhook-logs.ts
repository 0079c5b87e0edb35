import type { Db } from '../db/connect.ts';
import type { WebhookAttemptRow } from '../db/schema.ts';
import { ACCEPTED_EVENT_NAMES, loggedNamesOf } from '../events/catalog.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { presentLog } from './present.ts';
import { DELIVERY_STATUSES } from './schemas.ts';

export const webhookLogListSpec: ListSpec = {
  filters: {
    // a log of a sub-event holds its name: asking for the event (Case.Updated) lists its sub-events' too
    event: {
      kind: 'text',
      ops: ['eq', 'not_eq', 'in', 'not_in'],
      column: 'webhook_deliveries.event',
      // an event or sub-event name (a log holds one); a subscription pattern (Case.*) matches no log
      values: ACCEPTED_EVENT_NAMES,
      expand: loggedNamesOf,
    },
    case_id: { kind: 'uuid', ops: ['eq', 'not_eq'], column: 'webhook_deliveries.case_id' },
    individual_id: { kind: 'uuid', ops: ['eq', 'not_eq'], column: 'webhook_deliveries.individual_id' },
    company_id: { kind: 'uuid', ops: ['eq', 'not_eq'], column: 'webhook_deliveries.company_id' },
    webhook_id: { kind: 'uuid', ops: ['eq', 'not_eq'], column: 'webhook_deliveries.webhook_id' },
    event_id: { kind: 'uuid', ops: ['eq', 'not_eq'], column: 'webhook_deliveries.event_id' },
    status: { kind: 'set', values: DELIVERY_STATUSES, column: 'webhook_deliveries.status' },
    created_at: { kind: 'date', column: 'webhook_deliveries.event_created_at' },
  },
  sort: ['created_at'],
  sortColumns: { created_at: 'webhook_deliveries.event_created_at' },
  idColumn: 'webhook_deliveries.id',
  // 1 to 100 as every list (the spec's rule; the reference caps this one at 50, which stays valid)
};

export async function attemptsOf(db: Db, deliveryIds: string[]): Promise<Map<string, WebhookAttemptRow[]>> {
  const map = new Map<string, WebhookAttemptRow[]>();
  if (!deliveryIds.length) return map;
  const rows = await db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('attempted_at', 'desc')
    .orderBy('id')
    .execute();
  for (const a of rows) {
    const list = map.get(a.delivery_id) ?? [];
    list.push(a);
    map.set(a.delivery_id, list);
  }
  return map;
}

export async function listWebhookLogs(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(webhookLogListSpec, query);
  const base = db.selectFrom('webhook_deliveries').where('webhook_deliveries.workspace_id', '=', workspaceId);
  const { rows, pagination } = await fetchPage(
    webhookLogListSpec,
    parsed,
    base,
    (qb) =>
      qb
        .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
        .selectAll('webhook_deliveries')
        .select('webhooks.url as endpoint'),
    db,
  );
  const attempts = await attemptsOf(
    db,
    rows.map((r) => r.id),
  );
  return {
    data: rows.map((r) => presentLog(r, r.endpoint, attempts.get(r.id) ?? [])),
    pagination,
  };
}
