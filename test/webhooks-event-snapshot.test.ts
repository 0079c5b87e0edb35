import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Client, newWorkspace } from './helpers/harness.ts';
import { type Receiver, startReceiver } from './helpers/receiver.ts';

/**
 * Each event's payload is the entity as of that event. A check decided in the request that
 * created it (eKYC answers synchronously) emits Check.Started then its decision in one
 * transaction; its Check.Started used to carry the final check (status `approved`, the decision),
 * the very object of the Check.Approved after it.
 */
let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  await receiver.stop();
});

const uniquePath = () => `/snapshot/${Math.random().toString(36).slice(2, 10)}`;

async function individual(api: Client): Promise<string> {
  const res = await api.post('/v1/cases', {
    name: 'Snapshot',
    companies: [{ name: 'Main', country: 'FR' }],
    individuals: [
      {
        first_name: 'Marie',
        last_name: 'Curie',
        birth_date: '1967-11-07',
        email: 'marie@example.com',
        address: { country: 'FR', city: 'Paris' },
        relations: [{ roles: ['legal_representative'] }],
      },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.individuals[0].id as string;
}

describe('event payloads are snapshots of their event', () => {
  test('an eKYC check approved at creation: Check.Started shows it processing, undecided; Check.Approved decided', async () => {
    const api = await newWorkspace();
    const path = uniquePath();
    const hook = await api.post('/v1/webhooks', { url: receiver.url(path), events: ['Check.*'] });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const check = await api.post('/v1/checks/ekyc', { individual_id: await individual(api) });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    assert.equal(check.body.status, 'approved');

    await receiver.waitFor(() => receiver.deliveries(path).length >= 2);
    const byEvent = new Map(receiver.deliveries(path).map((r) => [r.json.event, r.json.check]));
    const started = byEvent.get('Check.Started');
    const approved = byEvent.get('Check.Approved');
    assert.equal(started.id, check.body.id);
    assert.equal(started.status, 'processing');
    assert.equal(started.data.result, null);
    assert.equal(started.data.decision, null);
    assert.equal(started.data.vendor.score, null);
    assert.deepEqual(started.data.review, {
      comment: null,
      reviewed_at: null,
      reviewer_type: null,
      user: null,
    });
    assert.deepEqual(started.data.information, check.body.data.information, 'what was sent to verify');
    assert.deepEqual(started.data.settings, check.body.data.settings);
    // the decision is the Check.Approved's, as the API shows the check
    assert.equal(approved.status, 'approved');
    assert.deepEqual(approved.data, check.body.data);
    assert.equal(approved.data.result, 'approved');

    // the stored payloads, as the webhook logs show them, are the same snapshots
    const logs = await api.get(`/v1/webhook-logs?webhook_id=${hook.body.id}`);
    assert.equal(logs.status, 200, JSON.stringify(logs.body));
    const logged = new Map<string, { check: { status: string } }>(
      logs.body.data.map((l: { event: string; payload: { check: { status: string } } }) => [
        l.event,
        l.payload,
      ]),
    );
    assert.equal(logged.get('Check.Started')?.check.status, 'processing');
    assert.equal(logged.get('Check.Approved')?.check.status, 'approved');
  });

  test('an eKYC check sent to review at creation: Check.Started processing, Check.ReviewNeeded need_review', async () => {
    const api = await newWorkspace();
    const path = uniquePath();
    assert.equal(
      (await api.post('/v1/webhooks', { url: receiver.url(path), events: ['Check.*'] })).status,
      201,
    );
    const check = await api.post('/v1/checks/ekyc', {
      individual_id: await individual(api),
      settings: { automatic_approval: false },
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    assert.equal(check.body.status, 'need_review');
    await receiver.waitFor(() => receiver.deliveries(path).length >= 2);
    const byEvent = new Map(receiver.deliveries(path).map((r) => [r.json.event, r.json.check]));
    assert.equal(byEvent.get('Check.Started').status, 'processing');
    assert.equal(byEvent.get('Check.Started').data.decision, null);
    assert.equal(byEvent.get('Check.ReviewNeeded').status, 'need_review');
    assert.deepEqual(byEvent.get('Check.ReviewNeeded').data, check.body.data);
  });
});
