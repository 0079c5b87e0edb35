import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { webhookTuning } from '../src/webhooks/tuning.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { type Received, type Receiver, startReceiver } from './helpers/receiver.ts';

/**
 * A webhook's claimed deliveries wait in their line in the process behind a hanging endpoint (up to
 * 32 of them, one timeout each). They were sent with the webhook as the claim had read it: after
 * DELETE answered 204, after PATCH {"status":"offline"}, after PATCH {"url"} re-pointed it, the old
 * endpoint kept receiving POSTs signed with the old secret, one per timeout, for minutes. Each
 * queued delivery must be sent with the webhook as it is when its turn comes.
 */
const defaults = { ...webhookTuning };
const receivers: Receiver[] = [];
after(async () => {
  Object.assign(webhookTuning, defaults);
  for (const r of receivers) await r.stop();
});

/** Long enough for the test to act while the first request hangs; short enough to wait out twice. */
const TIMEOUT_MS = 2000;
const EVENTS = 6;

async function receiver(mode: Receiver['mode']): Promise<Receiver> {
  const r = await startReceiver();
  r.mode = mode;
  receivers.push(r);
  return r;
}

async function sendingCount(webhookId: string): Promise<number> {
  const { ctx } = await getHarness();
  const row = await ctx.db
    .selectFrom('webhook_deliveries')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'sending')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A webhook to a hanging endpoint holding several claimed deliveries of one case (one line: sent one
 * after another): the first is hanging at the receiver, the others wait behind it.
 */
async function hangingWithQueue(api: Client, hang: Receiver, body: Record<string, unknown> = {}) {
  const created = await api.post('/v1/webhooks', { url: hang.url('/hang'), events: ['Case.*'], ...body });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const webhook = created.body as { id: string; secret: string };
  const c = await api.post('/v1/cases', { name: 'stale 0', status: 'draft' });
  assert.equal(c.status, 201, JSON.stringify(c.body));
  for (let i = 1; i < EVENTS; i++) {
    const res = await api.patch(`/v1/cases/${c.body.id}`, { name: `stale ${i}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  await hang.waitFor((reqs) => reqs.length >= 1);
  // every event claimed by this process: one hanging, the rest queued behind it
  await eventually(async () => (await sendingCount(webhook.id)) === EVENTS, 5000).catch(() =>
    assert.fail('the deliveries were not all claimed while the first one hung'),
  );
  assert.equal(hang.requests.length, 1, 'one request at a time per case');
  return webhook;
}

/** Waits past two timeouts: on the old code, the queued deliveries went out one per timeout. */
const waitOutTimeouts = () => new Promise((r) => setTimeout(r, 2 * TIMEOUT_MS + 500));

async function logsOf(api: Client, webhookId: string) {
  const res = await api.get(`/v1/webhook-logs?webhook_id=${webhookId}&limit=100`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data as {
    status: string;
    event_id: string;
    attempts: unknown[];
    last_attempt_at: string;
    created_at: string;
    retry_count: number;
  }[];
}

function verify(r: Received, secret: string): void {
  new StandardWebhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  });
}

describe('queued deliveries follow the webhook as it is when they are sent', () => {
  test('DELETE: nothing more reaches the endpoint', async () => {
    Object.assign(webhookTuning, { timeoutMs: TIMEOUT_MS, retryBaseMs: 600_000 });
    const api = await newWorkspace();
    const hang = await receiver({ kind: 'hang' });
    const webhook = await hangingWithQueue(api, hang);

    assert.equal((await api.delete(`/v1/webhooks/${webhook.id}`)).status, 204);
    await waitOutTimeouts();
    assert.equal(hang.requests.length, 1, 'no POST after the webhook was deleted');
    const { ctx } = await getHarness();
    const left = await ctx.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('webhook_id', '=', webhook.id)
      .execute();
    assert.deepEqual(left, []);
  });

  test('PATCH offline: nothing more is sent, the queued deliveries are kept pending_offline and go out once online', async () => {
    Object.assign(webhookTuning, { timeoutMs: TIMEOUT_MS, retryBaseMs: 600_000 });
    const api = await newWorkspace();
    const hang = await receiver({ kind: 'hang' });
    const webhook = await hangingWithQueue(api, hang);

    const off = await api.patch(`/v1/webhooks/${webhook.id}`, { status: 'offline' });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    await waitOutTimeouts();
    assert.equal(hang.requests.length, 1, 'no POST after the webhook was set offline');
    const logs = await eventually(async () => {
      const l = await logsOf(api, webhook.id);
      return l.every((x) => x.status === 'pending_offline') ? l : undefined;
    }, 5000);
    assert.equal(logs.length, EVENTS);
    // the queued ones were never attempted, and their logs say so
    const unsent = logs.filter((l) => l.attempts.length === 0);
    assert.equal(unsent.length, EVENTS - 1);
    for (const l of unsent) {
      assert.equal(l.retry_count, 0);
      assert.equal(l.last_attempt_at, l.created_at);
    }

    // back online: every event arrives, the never-attempted ones as first calls
    hang.mode = { kind: 'ok' };
    hang.answerHung(200);
    const on = await api.patch(`/v1/webhooks/${webhook.id}`, { status: 'online' });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    await hang.waitFor((reqs) => new Set(reqs.map((r) => r.json.context.event_id)).size >= EVENTS, 15_000);
    const firstCalls = hang.requests.slice(1).filter((r) => r.json.context.retry_count === 0);
    assert.equal(firstCalls.length, EVENTS - 1);
  });

  test('PATCH url and secret: the old endpoint gets nothing more, the new one the rest, signed with the new secret', async () => {
    Object.assign(webhookTuning, { timeoutMs: TIMEOUT_MS, retryBaseMs: 600_000 });
    const api = await newWorkspace();
    const hang = await receiver({ kind: 'hang' });
    const moved = await receiver({ kind: 'ok' });
    const webhook = await hangingWithQueue(api, hang);

    const secret = `whsec_${Buffer.from('a brand new secret, 32 bytes ok').toString('base64')}`;
    const patched = await api.patch(`/v1/webhooks/${webhook.id}`, { url: moved.url('/moved'), secret });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    await moved.waitFor((reqs) => reqs.length >= EVENTS - 1, 3 * TIMEOUT_MS);
    await waitOutTimeouts();
    assert.equal(hang.requests.length, 1, 'no POST to the old URL after the webhook was re-pointed');
    assert.equal(moved.requests.length, EVENTS - 1);
    for (const r of moved.requests) {
      verify(r, secret);
      assert.throws(() => verify(r, webhook.secret), /signature/i);
    }
    const firstEvent = hang.requests[0].json.context.event_id;
    assert.ok(!moved.requests.some((r) => r.json.context.event_id === firstEvent));
  });
});
