import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { deliveredName, subscribes } from '../events/catalog.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { iso } from '../shared/time.ts';
import { buildDeliveries, insertDeliveries, type OutboxEvent } from './build-deliveries.ts';
import { findWebhook } from './repository.ts';
import { webhookTuning } from './tuning.ts';

/** Events whose names are read per step while looking for the ones a replay sends. */
const SCAN_STEP = 5000;

/**
 * Re-sends to one webhook every event of its workspace recorded in [since, until) that it
 * subscribes to now, as new deliveries (new `webhook-id`, same `context.event_id`), in event
 * order. At most `webhookTuning.replayMax` (10,000) deliveries per call: the limit counts the
 * events sent, not the events looked at, and when more remain `has_more` is true and `next_since`
 * is the recorded time of the first one left (a replay from it may send again the few sent events
 * recorded at that same time: receivers deduplicate on `event_id`).
 */
export async function replayWebhook(
  db: Db,
  workspaceId: string,
  id: string,
  since: string,
  until?: string,
): Promise<{ webhook_id: string; deliveries: number; has_more: boolean; next_since: string | null }> {
  const hook = await findWebhook(db, workspaceId, id);
  if (!hook) throw notFound('Webhook');
  // an empty or reversed window is a mistake to say, not a replay of nothing
  if (until && new Date(until).getTime() <= new Date(since).getTime()) {
    throw badRequest('until must be later than since', 'until');
  }
  const max = Math.max(1, Math.floor(webhookTuning.replayMax));
  return db.transaction().execute(async (trx) => {
    const untilSql = until ? sql`and created_at < ${new Date(until)}` : sql``;
    // the webhook's subscriptions are matched as the dispatcher matches them, on the names only;
    // payloads are read for the events that will be sent
    const picked: string[] = [];
    let next: Date | string | null = null;
    let after = '0';
    for (;;) {
      const { rows } = await sql<{
        seq: string;
        type: string;
        sub_event: string | null;
        created_at: Date | string;
      }>`
        select seq, type, sub_event, created_at from events
        where workspace_id = ${workspaceId} and seq > ${after}::bigint
          and created_at >= ${new Date(since)} ${untilSql}
        order by seq limit ${SCAN_STEP}
      `.execute(trx);
      for (const r of rows) {
        if (!subscribes(hook.events, deliveredName(r.type, r.sub_event))) continue;
        if (picked.length === max) {
          next = r.created_at;
          break;
        }
        picked.push(String(r.seq));
      }
      if (next !== null || rows.length < SCAN_STEP) break;
      after = String(rows[rows.length - 1].seq);
    }
    const { rows } = picked.length
      ? await sql<OutboxEvent>`
          select id, workspace_id, case_id, type, sub_event, payload, created_at from events
          where seq = any(${picked}::bigint[]) order by seq
        `.execute(trx)
      : { rows: [] as OutboxEvent[] };
    const deliveries = await buildDeliveries(trx, rows, [hook]);
    await insertDeliveries(trx, deliveries);
    return {
      webhook_id: hook.id,
      deliveries: deliveries.length,
      has_more: next !== null,
      next_since: next === null ? null : iso(next),
    };
  });
}
