import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { multipartBody } from './helpers/files.ts';
import { eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { passportPng } from './helpers/id-documents.ts';
import { type Receiver, startReceiver } from './helpers/receiver.ts';

/**
 * A client written for the reference product, as public onboarding apps drive it: only the
 * reference's key header and paths, the case created first, entities one by one, the template
 * applied afterwards, documents uploaded, webhooks verified with the hex HMAC scheme, then an
 * incremental export paging with `last_activity_at.gte`.
 */

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  await receiver.stop();
});

/** The reference SDK's transport: base URL + `X-DOTFILE-API-KEY`, JSON in and out. */
async function referenceClient(key: string) {
  const { app } = await getHarness();
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await app.inject({
      method: method as 'GET',
      url: path,
      headers: {
        'x-dotfile-api-key': key,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
  };
  return {
    get: (p: string) => call('GET', p),
    post: (p: string, b: unknown = {}) => call('POST', p, b),
    patch: (p: string, b: unknown) => call('PATCH', p, b),
    delete: (p: string) => call('DELETE', p),
    upload: async (file: Buffer, filename: string) => {
      const { payload, contentType } = multipartBody([
        { name: 'file', filename, contentType: 'image/png', data: file },
      ]);
      const res = await app.inject({
        method: 'POST',
        url: '/v1/files/upload',
        headers: { 'x-dotfile-api-key': key, 'content-type': contentType },
        payload,
      });
      return { status: res.statusCode, body: JSON.parse(res.body) };
    },
  };
}

describe('a reference-product client, unchanged but for the base URL', () => {
  test('onboarding flow, signed webhooks and incremental export', async () => {
    const ws = await newWorkspace('reference-client');
    const api = await referenceClient(ws.key);
    const path = `/onboarding/${Math.random().toString(36).slice(2)}`;

    // the backend registers its webhook and verifies deliveries by hex HMAC of the raw body
    const hook = await api.post('/v1/webhooks', {
      url: receiver.url(path),
      events: ['Case.*', 'Check.*'],
      signature: 'hmac_sha256_hex',
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const secret: string = hook.body.secret;

    const template = await api.post('/v1/templates', {
      key: 'onboarding',
      name: 'Onboarding',
      checks: [{ type: 'id_document', targets: ['legal_representatives'] }],
    });
    assert.equal(template.status, 201, JSON.stringify(template.body));

    // case first, then the company and the representative one by one
    const kase = await api.post('/v1/cases/', { name: 'Acme onboarding', external_id: 'acme-42' });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const company = await api.post('/v1/companies', {
      case_id: kase.body.id,
      name: 'Acme SAS',
      country: 'FR',
    });
    assert.equal(company.status, 201, JSON.stringify(company.body));
    const rep = await api.post('/v1/individuals', {
      case_id: kase.body.id,
      first_name: 'Marie',
      last_name: 'Curie',
      birth_date: '1967-11-07',
      email: 'marie@example.com',
      is_business_contact: true,
      relations: [{ roles: ['legal_representative'], position: 'CEO' }],
    });
    assert.equal(rep.status, 201, JSON.stringify(rep.body));

    // the template chosen afterwards creates the representative's id_document check
    const patched = await api.patch(`/v1/cases/${kase.body.id}`, { template_key: 'onboarding' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const withChecks = await api.get(`/v1/individuals/${rep.body.id}`);
    const idCheck = withChecks.body.checks.find((c: { type: string }) => c.type === 'id_document');
    assert.ok(idCheck, JSON.stringify(withChecks.body.checks));
    assert.equal(idCheck.status, 'in_progress');
    assert.ok((await api.get(`/v1/cases/${kase.body.id}`)).body.flags.includes('for_first_collect'));

    // the end customer's document arrives through the backend
    const uploaded = await api.upload(passportPng({ outcome: 'approved' }), 'passport.png');
    assert.equal(uploaded.status, 200, JSON.stringify(uploaded.body));
    const sent = await api.post(`/v1/checks/id_document/${idCheck.id}/add_files`, {
      front_upload_ref: uploaded.body.upload_ref,
    });
    assert.equal(sent.status, 201, JSON.stringify(sent.body));
    const done = await eventually(async () => {
      const c = await api.get(`/v1/checks/id_document/${idCheck.id}`);
      return c.body.status === 'approved' && c.body;
    });
    assert.equal(done.data.review.reviewer_type, 'system');
    assert.equal(typeof done.data.review.comment, 'string');
    const documents = await api.get(`/v1/cases/${kase.body.id}/documents`);
    assert.equal(documents.status, 200, JSON.stringify(documents.body));

    // every delivery verifies with the receiver's own check; the approval arrived
    await receiver.waitFor((reqs) => reqs.some((r) => r.path === path && r.json?.event === 'Check.Approved'));
    const mine = receiver.requests.filter((r) => r.path === path);
    assert.ok(mine.length >= 4);
    for (const r of mine) {
      const expected = createHmac('sha256', secret).update(r.body).digest('hex');
      assert.equal(r.headers['dotfile-signature'], expected);
    }
    const names = mine.map((r) => r.json.event);
    assert.ok(names.includes('Case.Created') && names.includes('Check.Started'), names.join(','));

    // incremental export: every case active since a point in time, page by page
    for (let i = 0; i < 4; i++) await api.post('/v1/cases', { name: `Export ${i}` });
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const seen: string[] = [];
    for (let page = 1; ; page++) {
      const res = await api.get(
        `/v1/cases?last_activity_at.gte=${encodeURIComponent(since)}&sort=last_activity_at&limit=2&page=${page}`,
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.pagination.count, 5);
      seen.push(...res.body.data.map((c: { id: string }) => c.id));
      if (page * res.body.pagination.limit >= res.body.pagination.count) break;
    }
    assert.equal(new Set(seen).size, 5);
    assert.ok(seen.includes(kase.body.id));

    // and cleans up with a generic DELETE (JSON content type, no body)
    const { app } = await getHarness();
    const del = await app.inject({
      method: 'DELETE',
      url: `/v1/webhooks/${hook.body.id}`,
      headers: { 'x-dotfile-api-key': ws.key, 'content-type': 'application/json' },
    });
    assert.equal(del.statusCode, 204, del.body);
  });
});
