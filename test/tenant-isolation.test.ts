import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { makePng, uploadRef } from './helpers/files.ts';
import { eventually, getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

/**
 * Tenants are walls: every route of the OpenAPI document that takes an id is called with workspace
 * A's ids and workspace B's key, and must answer 404. A new route with an id fails this test until
 * it is listed here, so no endpoint can be added without its isolation being checked.
 */
describe('tenant isolation', () => {
  test('every id of workspace A is a 404 for workspace B, on every route', async () => {
    const { app } = await getHarness();
    const a = await newWorkspace('tenant-a');
    const b = await newWorkspace('tenant-b');

    const c = (await a.post('/v1/cases', sampleCaseBody('iso-case'))).body;
    const main = c.companies.find((x: any) => x.type === 'main');
    const ceo = c.individuals.find((x: any) => x.last_name === 'Lovelace');
    const relationId = ceo.relations[0].id;
    const note = (await a.post('/v1/notes', { case_id: c.id, content: 'hello' })).body;
    const tag = (await a.post('/v1/tags', { label: 'iso-tag' })).body;
    const ekyc = (await a.post('/v1/checks/ekyc', { individual_id: ceo.id })).body;
    const ref = await uploadRef(a, makePng({ width: 40, height: 30 }));
    const idd = (
      await a.post('/v1/checks/id_document', { individual_id: ceo.id, data: { front_upload_ref: ref } })
    ).body;
    const reputation = (await a.post('/v1/checks/online_reputation', { company_id: main.id })).body;
    const aml = (await a.post('/v1/checks/aml', { company_id: main.id })).body;
    const template = (
      await a.post('/v1/templates', {
        key: 'iso',
        name: 'Iso',
        checks: [{ type: 'ekyc', targets: ['individuals'] }],
      })
    ).body;
    const webhook = (
      await a.post('/v1/webhooks', { name: 'iso', url: 'http://127.0.0.1:9/hook', events: ['Case.Created'] })
    ).body;
    await a.post('/v1/cases', { name: 'trigger a delivery' });
    const log = await eventually(async () => (await a.get('/v1/webhook-logs')).body.data?.[0]);
    const fileId = (
      await eventually(async () => {
        const got = (await a.get(`/v1/checks/id_document/${idd.id}`)).body;
        return got.data.information.front_file_id ? got : null;
      })
    ).data.information.front_file_id;
    for (const [name, v] of Object.entries({
      note,
      tag,
      ekyc,
      idd,
      reputation,
      aml,
      template,
      webhook,
      log,
    })) {
      assert.ok(v?.id, `${name} created: ${JSON.stringify(v)}`);
    }

    const checkIds: Record<string, string> = {
      ekyc: ekyc.id,
      aml: aml.id,
      online_reputation: reputation.id,
      id_document: idd.id,
      // no company_monitoring check can be created over the API: another type's id must be a 404 too
      'company-monitoring': ekyc.id,
    };
    const idFor = (path: string): Record<string, string> => {
      if (path.startsWith('/v1/cases/{caseId}')) return { caseId: c.id, caseRelationId: relationId };
      if (path.startsWith('/v1/cases/')) return { id: c.id };
      if (path.startsWith('/v1/companies/')) return { id: main.id };
      if (path.startsWith('/v1/individuals/')) return { id: ceo.id };
      if (path === '/v1/checks/{id}') return { id: ekyc.id };
      const type = /^\/v1\/checks\/([a-z_-]+)\/\{id\}/.exec(path)?.[1];
      if (type) return { id: checkIds[type] };
      if (path.startsWith('/v1/notes/')) return { id: note.id };
      if (path.startsWith('/v1/tags/')) return { id: tag.id };
      if (path.startsWith('/v1/templates/')) return { id: template.id };
      if (path.startsWith('/v1/webhooks/')) return { id: webhook.id };
      if (path.startsWith('/v1/webhook-logs/')) return { id: log.id };
      if (path.startsWith('/v1/files/')) return { id: fileId };
      throw new Error(`tenant-isolation test: no id known for ${path}; add it`);
    };
    const bodies: Record<string, unknown> = {
      'PATCH /v1/cases/{id}': { name: 'x' },
      'PATCH /v1/companies/{id}': { name: 'x' },
      'POST /v1/companies/{id}/set-relevant': { is_relevant: false },
      'PATCH /v1/individuals/{id}': { first_name: 'x' },
      'POST /v1/individuals/{id}/set-relevant': { is_relevant: false },
      'POST /v1/cases/{caseId}/relations': { from_individual_id: ceo.id },
      'PATCH /v1/cases/{caseId}/relations/{caseRelationId}': { position: 'x' },
      'PATCH /v1/checks/aml/{id}/hits/review': { action: 'confirm', hit_ids: ['h1'] },
      'PATCH /v1/checks/aml/{id}/monitoring': { is_monitored: true },
      'POST /v1/checks/id_document/{id}/add_files': { front_upload_ref: ref },
      'POST /v1/notes/{id}/comments': { content: 'x' },
      'PATCH /v1/tags/{id}': { label: 'y' },
      'POST /v1/cases/{id}/tags': { tags: ['x'] },
      'DELETE /v1/cases/{id}/tags': { tags: ['x'] },
      'POST /v1/cases/{id}/reviews': { status: 'approved' },
      'POST /v1/cases/{id}/risks': { level: 'low' },
      'PATCH /v1/templates/{id}': { name: 'x' },
      'PATCH /v1/webhooks/{id}': { name: 'x' },
      'POST /v1/webhooks/{id}/replay': { since: '2020-01-01T00:00:00Z' },
    };
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    let checked = 0;
    for (const [path, ops] of Object.entries<Record<string, unknown>>(doc.paths)) {
      if (!path.startsWith('/v1/') || !path.includes('{')) continue;
      for (const method of Object.keys(ops)) {
        const m = method.toUpperCase();
        const key = `${m} ${path}`;
        if (/\/review$/.test(path) && m === 'PATCH' && !bodies[key]) bodies[key] = { action: 'approve' };
        const ids = idFor(path);
        const url = path.replace(/\{(\w+)\}/g, (_, p: string) => ids[p]);
        const body = bodies[key] ?? (m === 'GET' || m === 'DELETE' ? undefined : {});
        const res = await (m === 'GET'
          ? b.get(url)
          : m === 'DELETE'
            ? b.delete(url, body)
            : m === 'PATCH'
              ? b.patch(url, body)
              : b.post(url, body));
        assert.equal(res.status, 404, `${key} as workspace B → ${res.status} ${JSON.stringify(res.body)}`);
        checked++;
      }
    }
    assert.ok(checked >= 40, `${checked} routes checked`);

    // ids given in bodies and filters
    const byBody: [string, unknown][] = [
      ['/v1/notes', { case_id: c.id, content: 'x' }],
      ['/v1/companies', { case_id: c.id, name: 'x', type: 'affiliated' }],
      ['/v1/individuals', { case_id: c.id, first_name: 'x', last_name: 'y' }],
      ['/v1/checks/ekyc', { individual_id: ceo.id }],
      ['/v1/checks/id_document', { individual_id: ceo.id }],
      ['/v1/checks/online_reputation', { company_id: main.id }],
      ['/v1/checks/aml', { company_id: main.id }],
      ['/v1/templates/run', { case_id: c.id, template_key: 'iso' }],
    ];
    for (const [url, body] of byBody) {
      const res = await b.post(url, body);
      assert.equal(res.status, 404, `POST ${url} with A's id → ${res.status} ${JSON.stringify(res.body)}`);
    }
    for (const url of [
      `/v1/checks?case_id=${c.id}`,
      `/v1/companies?case_id=${c.id}`,
      `/v1/individuals?case_id=${c.id}`,
    ]) {
      assert.equal((await b.get(url)).body.pagination.count, 0, url);
    }
    for (const url of [
      '/v1/cases',
      '/v1/tags',
      '/v1/templates',
      '/v1/webhooks',
      '/v1/webhook-logs',
      '/v1/checks',
    ]) {
      const res = await b.get(url);
      assert.equal(res.status, 200, url);
      assert.equal(res.body.data.length, 0, url);
    }
    // and A still sees everything, unchanged
    assert.equal((await a.get(`/v1/cases/${c.id}`)).body.name, 'Acme onboarding');
    assert.equal((await a.get(`/v1/files/${fileId}`)).status, 200);
  });
});
