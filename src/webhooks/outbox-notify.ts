import type pino from 'pino';
import type { Db } from '../db/connect.ts';
import { onWebhookWork } from '../events/outbox-signal.ts';
import { announceWork } from '../jobs/work-channel.ts';

/** The topic on the work channel (src/jobs/work-channel.ts) that wakes the webhook loops. */
export const WEBHOOK_TOPIC = 'webhooks';
/** At most one announcement per process this often: under a steady flow the loops poll fast anyway. */
const ANNOUNCE_EVERY_MS = 200;

/**
 * In a process that records events but runs no webhook loop, passes its hints (src/events/
 * outbox-signal.ts) on to the loops of the worker processes; returns the unsubscribe. The hint
 * comes from inside the writer's transaction: the announcement goes out after it, on the pool.
 */
export function announceWebhookWork(db: Db, logger: pino.Logger): () => void {
  let last = 0;
  return onWebhookWork(() => {
    const now = Date.now();
    if (now - last < ANNOUNCE_EVERY_MS) return;
    last = now;
    setImmediate(() => announceWork(db, WEBHOOK_TOPIC, logger));
  });
}
