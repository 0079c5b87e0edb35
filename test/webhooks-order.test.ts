import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pino from 'pino';
import { WebhookEngine } from '../src/webhooks/engine.ts';
import { webhookEngineOf } from '../src/webhooks/module.ts';
import { webhookTuning } from '../src/webhooks/tuning.ts';
import { type Client, eventually, getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';
import { type Received, type Receiver, startReceiver } from './helpers/receiver.ts';

/**
 * Delivery order within one webhook: the events of a transaction (a case graph created in one
 * request, an eKYC check started and decided in one request) share their dispatch, and used to
 * share their due time too, so the claim handed them out in arbitrary order and sent them all at
 * once. A receiver must get the first attempts in the order the events were emitted.
 */
const defaults = { ...webhookTuning };
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  Object.assign(webhookTuning, defaults);
  await receiver.stop();
});

const uniquePath = () => `/order/${Math.random().toString(36).slice(2, 10)}`;

/** The workspace's events in emission (commit) order, with their case. */
async function emitted(workspaceId: string): Promise<{ id: string; type: string; case_id: string | null }[]> {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('events')
    .select(['id', 'type', 'case_id'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .execute();
}

/** The workspace's event ids in emission (commit) order. */
async function emissionOrder(workspaceId: string): Promise<string[]> {
  return (await emitted(workspaceId)).map((r) => r.id);
}

/**
 * Asserts that every event arrived once and that each case's events arrived in emission order
 * (the guarantee: per webhook and case; different cases' lines run side by side).
 */
function assertOrderPerCase(arrived: string[], events: { id: string; case_id: string | null }[]) {
  assert.equal(arrived.length, events.length, 'every event arrived');
  assert.equal(new Set(arrived).size, events.length, 'every event arrived once');
  const caseOf = new Map(events.map((e) => [e.id, e.case_id ?? '']));
  const byCase = (ids: string[]) => {
    const groups = new Map<string, string[]>();
    for (const id of ids) {
      const key = caseOf.get(id);
      assert.ok(key !== undefined, `unexpected event ${id}`);
      groups.set(key, [...(groups.get(key) ?? []), id]);
    }
    return groups;
  };
  const want = byCase(events.map((e) => e.id));
  const got = byCase(arrived);
  assert.ok(want.size > 1, 'several cases');
  for (const [key, ids] of want) assert.deepEqual(got.get(key), ids, `order of case ${key}`);
}

async function hook(api: Client, path: string, events: string[]) {
  const res = await api.post('/v1/webhooks', { url: receiver.url(path), events });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string };
}

const firstAttempts = (path: string) =>
  receiver.deliveries(path).filter((r: Received) => r.json.context.retry_count === 0);

describe('webhook delivery order', () => {
  test('one webhook receives the first attempts of its events in emission order (case graphs, eKYC checks)', async () => {
    const api = await newWorkspace();
    const path = uniquePath();
    await hook(api, path, ['*']);
    // each request is one transaction emitting several events: the case graph (the case, its
    // companies, individuals, relations...), then a synchronous eKYC check (Check.Started, then its
    // decision, then the case's own updates)
    for (let i = 0; i < 8; i++) {
      const created = await api.post('/v1/cases', sampleCaseBody(`order-${i}`));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const ceo = created.body.individuals.find((x: { first_name: string }) => x.first_name === 'Ada');
      const check = await api.post('/v1/checks/ekyc', { individual_id: ceo.id });
      assert.equal(check.status, 201, JSON.stringify(check.body));
    }
    const events = await emitted(api.workspaceId);
    assert.ok(events.length >= 60, `${events.length} events`);
    await receiver.waitFor(() => firstAttempts(path).length >= events.length, 60_000);
    assertOrderPerCase(
      firstAttempts(path).map((r) => r.json.context.event_id as string),
      events,
    );
  });

  test('each webhook keeps its own order when several subscribe to the same events', async () => {
    const api = await newWorkspace();
    const paths = [uniquePath(), uniquePath(), uniquePath()];
    for (const p of paths) await hook(api, p, ['Case.*', 'Individual.*', 'Company.*', 'Check.*']);
    for (let i = 0; i < 4; i++) {
      const created = await api.post('/v1/cases', sampleCaseBody(`multi-${i}`));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const ceo = created.body.individuals.find((x: { first_name: string }) => x.first_name === 'Ada');
      assert.equal((await api.post('/v1/checks/ekyc', { individual_id: ceo.id })).status, 201);
    }
    const subscribed = (await emitted(api.workspaceId)).filter((r) =>
      /^(Case|Individual|Company|Check)\./.test(r.type),
    );
    for (const p of paths) {
      await receiver.waitFor(() => firstAttempts(p).length >= subscribed.length, 60_000);
      assertOrderPerCase(
        firstAttempts(p).map((r) => r.json.context.event_id as string),
        subscribed,
      );
    }
  });

  test('a case whose delivery hangs does not hold back the same webhook’s events of other cases', async () => {
    // the endpoint never answers the events of the first case; a request lasts up to the timeout
    // (set far beyond the test's wait), so the other cases' events arrive only if their lines do
    // not wait behind it
    Object.assign(webhookTuning, { timeoutMs: 300_000, retryBaseMs: 600_000 });
    const blocking = await startReceiver();
    try {
      const api = await newWorkspace();
      const res = await api.post('/v1/webhooks', { url: blocking.url('/lines'), events: ['Case.*'] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const stuck = await api.post('/v1/cases', { name: 'Stuck', status: 'draft' });
      assert.equal(stuck.status, 201);
      blocking.mode = { kind: 'hang' };
      await blocking.waitFor(() => blocking.deliveries('/lines').length === 1, 60_000);
      // answered from now on, but the first case's request stays unanswered (it is already in)
      blocking.mode = { kind: 'ok' };
      assert.equal((await api.patch(`/v1/cases/${stuck.body.id}`, { name: 'Stuck again' })).status, 200);
      const others: string[] = [];
      for (let i = 0; i < 3; i++) {
        const other = await api.post('/v1/cases', { name: `Free ${i}`, status: 'draft' });
        assert.equal(other.status, 201);
        others.push(other.body.id);
      }
      await blocking.waitFor(
        () => others.every((id) => blocking.deliveries('/lines').some((r) => r.json.context.case?.id === id)),
        60_000,
      );
      // the stuck case's second event waits behind its first: its line keeps its order
      const stuckSeen = blocking
        .deliveries('/lines')
        .filter((r) => r.json.context.case?.id === stuck.body.id);
      assert.equal(stuckSeen.length, 1, 'the stuck case’s next event waits for the first one’s answer');
    } finally {
      Object.assign(webhookTuning, defaults);
      await blocking.stop();
    }
  });

  test('an endpoint that never answers: one request at a time, in order, each sent once while it waits its turn', async () => {
    // every attempt times out after 500 ms; 16 deliveries in one line take ~8 s, longer than a
    // lease (timeout + 5 s): the ones at the back keep their claim (renewed), else another claim
    // would take them again and send them twice. No retry falls due during the test.
    Object.assign(webhookTuning, { timeoutMs: 500, leaseMs: 0, retryBaseMs: 600_000 });
    const hanging = await startReceiver();
    hanging.mode = { kind: 'hang' };
    try {
      const api = await newWorkspace();
      const res = await api.post('/v1/webhooks', { url: hanging.url('/hang'), events: ['Case.*'] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const created = await api.post('/v1/cases', { name: 'Hanging', status: 'draft' });
      assert.equal(created.status, 201);
      for (let i = 0; i < 15; i++)
        assert.equal((await api.patch(`/v1/cases/${created.body.id}`, { name: `Name ${i}` })).status, 200);
      const emitted = await emissionOrder(api.workspaceId);
      assert.equal(emitted.length, 16);
      // every delivery had its first attempt and its outcome recorded (a retry scheduled)
      await eventually(async () => {
        const logs = await api.get(`/v1/webhook-logs?webhook_id=${res.body.id}&limit=50`);
        const data = logs.body.data as { status: string; attempts: unknown[] }[];
        return data.length === 16 && data.every((l) => l.status === 'pending' && l.attempts.length === 1);
      }, 60_000);
      const got = hanging.deliveries('/hang');
      assert.deepEqual(
        got.map((r) => r.json.context.event_id),
        emitted,
      );
      assert.equal(new Set(got.map((r) => r.headers['webhook-id'])).size, 16, 'each sent once');
      // the log's last_attempt_at is when the attempt was made, not when it was claimed and queued
      const logs = await api.get(`/v1/webhook-logs?webhook_id=${res.body.id}&limit=50`);
      for (const l of logs.body.data as { last_attempt_at: string; attempts: { attempted_at: string }[] }[])
        assert.equal(l.last_attempt_at, l.attempts[0].attempted_at);
    } finally {
      Object.assign(webhookTuning, defaults);
      await hanging.stop();
    }
  });

  test('a case’s line stays with the worker process sending it: another process takes other cases, then the rest in order', async () => {
    // two delivery loops on one database, as `serve` and `vericase worker` are: the harness's, and
    // a second one started here. One delivery per webhook at a time in each (webhookMaxInFlight 1),
    // so the first loop, holding the stuck case's hanging request, claims nothing more: the case's
    // next events are due and only the second loop could take them, which would send them while
    // the first request still waits for its answer.
    const { ctx } = await getHarness();
    assert.ok(webhookEngineOf(ctx)?.running, 'the harness runs a delivery loop');
    Object.assign(webhookTuning, { timeoutMs: 300_000, retryBaseMs: 600_000, webhookMaxInFlight: 1 });
    const blocking = await startReceiver();
    const second = new WebhookEngine(ctx.db, pino({ level: 'silent' }), () => true, {
      sharedDatabase: ctx.dbKind === 'postgres',
      vacuumOutbox: false,
    });
    try {
      const api = await newWorkspace();
      const res = await api.post('/v1/webhooks', { url: blocking.url('/procs'), events: ['Case.*'] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      blocking.mode = { kind: 'hang' };
      const stuck = await api.post('/v1/cases', { name: 'Stuck', status: 'draft' });
      assert.equal(stuck.status, 201);
      await blocking.waitFor(() => blocking.deliveries('/procs').length === 1, 60_000);
      blocking.mode = { kind: 'ok' };
      second.start();
      for (const name of ['Stuck 1', 'Stuck 2'])
        assert.equal((await api.patch(`/v1/cases/${stuck.body.id}`, { name })).status, 200);
      const free = await api.post('/v1/cases', { name: 'Free', status: 'draft' });
      assert.equal(free.status, 201);
      // the second loop sends the other case's event, due after the stuck case's two
      await blocking.waitFor(
        () => blocking.deliveries('/procs').some((r) => r.json.context.case?.id === free.body.id),
        60_000,
      );
      const ofStuck = () =>
        blocking.deliveries('/procs').filter((r) => r.json.context.case?.id === stuck.body.id);
      assert.equal(ofStuck().length, 1, 'the stuck case’s next events wait for its first one’s answer');
      // answered: the case's next events follow, in emission order, whichever loop takes them
      blocking.answerHung();
      await blocking.waitFor(() => ofStuck().length === 3, 60_000);
      const order = (await emitted(api.workspaceId))
        .filter((e) => e.case_id === stuck.body.id)
        .map((e) => e.id);
      assert.deepEqual(
        ofStuck().map((r) => r.json.context.event_id),
        order,
      );
    } finally {
      Object.assign(webhookTuning, defaults);
      blocking.answerHung();
      await second.stop();
      await blocking.stop();
    }
  });
});
