/**
 * The spec's convention for every list endpoint: without `sort`, `created_at` ascending. The
 * reference orders some lists otherwise (checks, templates and webhooks by `updated_at`, webhook logs
 * and document types newest first); the spec wins, so a client paging through a list it did not
 * sort sees the oldest first everywhere, and a change to an item does not move it between pages.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually, newWorkspace } from './helpers/harness.ts';
import { type Receiver, startReceiver } from './helpers/receiver.ts';

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => receiver.stop());

const createdAts = (body: { data: { created_at: string }[] }) => body.data.map((x) => x.created_at);
const ascending = (xs: string[]) => [...xs].sort();

describe('lists without sort: created_at ascending', () => {
  test('checks, templates, webhooks, webhook logs and document types', async () => {
    const api = await newWorkspace('default-order');
    const kase = await api.post('/v1/cases', {
      name: 'Order',
      companies: [{ name: 'Order SAS', country: 'FR' }],
      individuals: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          birth_date: '1985-12-10',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const individualId = kase.body.individuals[0].id;
    // three checks, then the first one changed: it stays first
    const first = await api.post('/v1/checks/id_document', { individual_id: individualId });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    for (const type of ['ekyc', 'id_document']) {
      const res = await api.post(`/v1/checks/${type}`, { individual_id: individualId });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const review = await api.patch(`/v1/checks/id_document/${first.body.id}/review`, {
      action: 'reject',
      comment: 'changed last',
    });
    assert.equal(review.status, 200, JSON.stringify(review.body));
    const checks = (await api.get(`/v1/checks?individual_id=${individualId}`)).body;
    assert.equal(checks.data.length, 3);
    assert.equal(checks.data[0].id, first.body.id);
    assert.deepEqual(createdAts(checks), ascending(createdAts(checks)));

    for (const key of ['t-one', 't-two']) {
      assert.equal((await api.post('/v1/templates', { key, name: key, checks: [] })).status, 201);
    }
    const templates = (await api.get('/v1/templates')).body;
    assert.equal((await api.patch(`/v1/templates/${templates.data[0].id}`, { name: 'renamed' })).status, 200);
    assert.deepEqual(
      (await api.get('/v1/templates')).body.data.map((t: { key: string }) => t.key),
      ['t-one', 't-two'],
    );

    const hooks: string[] = [];
    for (const name of ['hook-one', 'hook-two']) {
      const hook = await api.post('/v1/webhooks', {
        name,
        url: receiver.url(`/${api.workspaceId}/${name}`),
        events: ['Case.*'],
      });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      hooks.push(hook.body.id);
    }
    assert.equal((await api.patch(`/v1/webhooks/${hooks[0]}`, { name: 'hook-one-renamed' })).status, 200);
    assert.deepEqual(
      (await api.get('/v1/webhooks')).body.data.map((h: { id: string }) => h.id),
      hooks,
    );

    for (const name of ['Order 2', 'Order 3', 'Order 4']) {
      assert.equal((await api.post('/v1/cases', { name })).status, 201);
    }
    const logs = await eventually(async () => {
      const res = await api.get(`/v1/webhook-logs?webhook_id=${hooks[1]}`);
      return res.body.data.length >= 3 ? res.body : undefined;
    });
    assert.deepEqual(createdAts(logs), ascending(createdAts(logs)));
    const newest = (await api.get(`/v1/webhook-logs?webhook_id=${hooks[1]}&sort=created_at.desc`)).body;
    assert.deepEqual(createdAts(newest), ascending(createdAts(newest)).reverse());

    for (const key of ['order_one', 'order_two']) {
      const res = await api.post('/v1/document_types', { key, label: key, target_entities: ['company'] });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    const types = (await api.get('/v1/document_types?limit=100')).body;
    assert.deepEqual(createdAts(types), ascending(createdAts(types)));
    assert.deepEqual(
      types.data.slice(-2).map((t: { key: string }) => t.key),
      ['order_one', 'order_two'],
    );
  });
});
