import assert from 'node:assert/strict';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { buildApp } from '../src/http/app.ts';
import { clientFor, getHarness, newWorkspace } from './helpers/harness.ts';

/** A company's `entity_legal_form`, typed by the caller, is an active ISO 20275 code of its country. */

async function caseWithMain(api: Awaited<ReturnType<typeof newWorkspace>>) {
  const c = await api.post('/v1/cases', { name: 'ELF', companies: [{ name: 'Main SAS', country: 'FR' }] });
  assert.equal(c.status, 201, JSON.stringify(c.body));
  return c.body;
}

function assertRefused(res: { status: number; body: any }, path: string, message: RegExp) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.details?.[0]?.path, path, JSON.stringify(res.body));
  assert.match(res.body.message, new RegExp(path.replace(/[[\].]/g, '\\$&')));
  assert.match(res.body.message, message);
}

describe('entity_legal_form is validated against the ISO 20275 list', () => {
  test('POST /v1/companies: unknown, malformed or another country’s code is a 400 naming the field', async () => {
    const api = await newWorkspace();
    const c = await caseWithMain(api);
    const company = (fields: Record<string, unknown>) =>
      api.post('/v1/companies', { case_id: c.id, type: 'affiliated', name: 'Sub', ...fields });

    assertRefused(await company({ country: 'FR', entity_legal_form: 'ZZZZ' }), 'entity_legal_form', /ZZZZ/);
    assertRefused(await company({ country: 'FR', entity_legal_form: 'sas' }), 'entity_legal_form', /4/);
    assertRefused(await company({ country: 'FR', entity_legal_form: '' }), 'entity_legal_form', /4/);
    // H0PO is a British private limited company
    assertRefused(await company({ country: 'FR', entity_legal_form: 'H0PO' }), 'entity_legal_form', /GB/);
    assert.equal((await api.get(`/v1/cases/${c.id}`)).body.companies.length, 1, 'nothing written');

    const ok = await company({ country: 'FR', entity_legal_form: '6CHY' });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.match(ok.body.entity_legal_form_label, /société par actions simplifiée/);
    // the placeholder codes (8888 other, 9999 none) are valid in every country; null is no code
    assert.equal((await company({ country: 'DE', entity_legal_form: '8888' })).status, 201);
    assert.equal((await company({ country: 'DE', entity_legal_form: null })).status, 201);
    // without a country, any active code
    assert.equal((await company({ entity_legal_form: 'H0PO' })).status, 201);
  });

  test('PATCH /v1/companies/{id}: checked against the country given or stored; nothing changes on a refusal', async () => {
    const api = await newWorkspace();
    const c = await caseWithMain(api);
    const main = c.companies[0];
    assertRefused(
      await api.patch(`/v1/companies/${main.id}`, { entity_legal_form: 'H0PO' }),
      'entity_legal_form',
      /GB/,
    );
    assertRefused(
      await api.patch(`/v1/companies/${main.id}`, { name: 'Renamed', entity_legal_form: 'NOPE' }),
      'entity_legal_form',
      /NOPE/,
    );
    const stored = (await api.get(`/v1/companies/${main.id}`)).body;
    assert.equal(stored.name, 'Main SAS');
    assert.equal(stored.entity_legal_form, null);
    // the same code with the country it belongs to
    const moved = await api.patch(`/v1/companies/${main.id}`, { country: 'GB', entity_legal_form: 'H0PO' });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.entity_legal_form, 'H0PO');
    assert.equal((await api.patch(`/v1/companies/${main.id}`, { entity_legal_form: null })).status, 200);
  });

  test('PATCH /v1/companies/{id}: a new country alone must fit the legal form stored', async () => {
    const api = await newWorkspace();
    const c = await api.post('/v1/cases', {
      name: 'ELF country',
      companies: [{ name: 'Main SAS', country: 'FR', entity_legal_form: '6CHY' }],
    });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    const main = c.body.companies[0];
    assertRefused(await api.patch(`/v1/companies/${main.id}`, { country: 'DE' }), 'country', /6CHY.*FR/);
    assertRefused(
      await api.patch(`/v1/companies/${main.id}`, { name: 'Renamed', country: 'GB' }),
      'country',
      /entity_legal_form/,
    );
    const stored = (await api.get(`/v1/companies/${main.id}`)).body;
    assert.deepEqual([stored.name, stored.country, stored.entity_legal_form], ['Main SAS', 'FR', '6CHY']);
    // the same country, both fields together, or a code cleared in the same request are accepted
    assert.equal((await api.patch(`/v1/companies/${main.id}`, { country: 'FR' })).status, 200);
    const both = await api.patch(`/v1/companies/${main.id}`, { country: 'GB', entity_legal_form: 'H0PO' });
    assert.equal(both.status, 200, JSON.stringify(both.body));
    const cleared = await api.patch(`/v1/companies/${main.id}`, { country: 'DE', entity_legal_form: null });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.deepEqual([cleared.body.country, cleared.body.entity_legal_form], ['DE', null]);
    // a placeholder code (8888: other) fits every country
    assert.equal((await api.patch(`/v1/companies/${main.id}`, { entity_legal_form: '8888' })).status, 200);
    assert.equal((await api.patch(`/v1/companies/${main.id}`, { country: 'IT' })).status, 200);
  });

  test('POST /v1/cases: the nested company’s path is named and no case is written', async () => {
    const api = await newWorkspace();
    const res = await api.post('/v1/cases', {
      name: 'Refused',
      companies: [
        { name: 'Main SAS', country: 'FR', entity_legal_form: '6CHY' },
        {
          name: 'Sub GmbH',
          type: 'affiliated',
          country: 'DE',
          entity_legal_form: '6CHY',
          relations: [{ roles: ['shareholder'] }],
        },
      ],
    });
    assertRefused(res, 'companies[1].entity_legal_form', /FR/);
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0);
  });

  test('a code from the registry is kept as the registry gives it; one typed over it is checked', async () => {
    const api = await newWorkspace();
    const found = await api.get('/v1/company-data/search?country=FR&name=Legal%20Form%20Test');
    assert.equal(found.status, 200, JSON.stringify(found.body));
    const ref = found.body.data[0].search_ref;
    // one registry fetch a month: a refusal must give back the fetch it cost
    const limit = await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: 1 } });
    assert.equal(limit.status, 200, JSON.stringify(limit.body));
    const refused = await api.post('/v1/cases', {
      name: 'Registry',
      companies: [{ search_ref: ref, entity_legal_form: 'H0PO' }],
    });
    assertRefused(refused, 'companies[0].entity_legal_form', /GB/);
    const imported = await api.post('/v1/cases', { name: 'Registry', companies: [{ search_ref: ref }] });
    assert.equal(imported.status, 201, JSON.stringify(imported.body));
    assert.ok(imported.body.companies[0].entity_legal_form);
    // POST /v1/companies: the country comes from the profile, known only after the fetch (into
    // another case: a registry company is one company of a case)
    await api.patch('/v1/workspace/settings', { company_data: { fetch_limit: 2 } });
    const other = await api.post('/v1/cases', {
      name: 'Other',
      companies: [{ type: 'main', name: 'Holding', country: 'FR' }],
    });
    assert.equal(other.status, 201, JSON.stringify(other.body));
    const company = (fields: Record<string, unknown>) =>
      api.post('/v1/companies', {
        case_id: other.body.id,
        type: 'affiliated',
        search_ref: ref,
        ...fields,
      });
    assertRefused(await company({ entity_legal_form: 'H0PO' }), 'entity_legal_form', /GB/);
    const typed = await company({ entity_legal_form: '8888' });
    assert.equal(typed.status, 201, JSON.stringify(typed.body));
    assert.equal(typed.body.entity_legal_form, '8888');
  });

  test('without a list loaded, only the form of a code is checked', async () => {
    const h = await getHarness();
    const dir = await mkdtemp(join(tmpdir(), 'vericase-no-elf-'));
    const app = await buildApp({ ...h.ctx, config: { ...h.ctx.config, referenceDir: dir } });
    await app.ready();
    try {
      const ws = await newWorkspace('no-elf');
      const api = clientFor(app, ws.key, ws.workspaceId);
      const c = await caseWithMain(api);
      const company = (code: string) =>
        api.post('/v1/companies', {
          case_id: c.id,
          type: 'affiliated',
          name: 'Sub',
          country: 'FR',
          entity_legal_form: code,
        });
      assertRefused(await company('sas'), 'entity_legal_form', /4/);
      const unchecked = await company('ZZZZ');
      assert.equal(unchecked.status, 201, JSON.stringify(unchecked.body));
      assert.equal(unchecked.body.entity_legal_form, 'ZZZZ');
    } finally {
      await app.close();
    }
  });
});
