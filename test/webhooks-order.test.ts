import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Client, getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';
import { type Received, type Receiver, startReceiver } from './helpers/receiver.ts';

/**
 * Delivery order within one webhook: the events of a transaction (a case graph created in one
 * request, an eKYC check started and decided in one request) share their dispatch, and used to
 * share their due time too, so the claim handed them out in arbitrary order and sent them all at
 * once. A receiver must get the first attempts in the order the events were emitted.
 */
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  await receiver.stop();
});

const uniquePath = () => `/order/${Math.random().toString(36).slice(2, 10)}`;

/** The workspace's event ids in emission (commit) order. */
async function emissionOrder(workspaceId: string): Promise<string[]> {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .execute();
  return rows.map((r) => r.id);
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
    const emitted = await emissionOrder(api.workspaceId);
    assert.ok(emitted.length >= 60, `${emitted.length} events`);
    await receiver.waitFor(() => firstAttempts(path).length >= emitted.length, 60_000);
    const arrived = firstAttempts(path).map((r) => r.json.context.event_id as string);
    assert.equal(new Set(arrived).size, emitted.length, 'every event arrived once');
    assert.deepEqual(arrived, emitted);
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
    const { ctx } = await getHarness();
    const rows = await ctx.db
      .selectFrom('events')
      .select(['id', 'type'])
      .where('workspace_id', '=', api.workspaceId)
      .orderBy('seq')
      .execute();
    const subscribed = rows.filter((r) => /^(Case|Individual|Company|Check)\./.test(r.type)).map((r) => r.id);
    for (const p of paths) {
      await receiver.waitFor(() => firstAttempts(p).length >= subscribed.length, 60_000);
      assert.deepEqual(
        firstAttempts(p).map((r) => r.json.context.event_id),
        subscribed,
      );
    }
  });
});
