/**
 * A value refused by a schema's `pattern` is answered in words, never with the regular expression
 * (src/http/schema-formats.ts, PATTERN_MESSAGES): every pattern the OpenAPI document declares has
 * its words, and the answers of a few routes read them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PATTERN_MESSAGES } from '../src/http/schema-formats.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

/** Every string schema's `pattern` in a JSON document (not the names under patternProperties). */
function patterns(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const x of node) patterns(x, found);
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (typeof o.pattern === 'string' && (o.type === 'string' || o.type === undefined)) found.add(o.pattern);
    for (const v of Object.values(o)) patterns(v, found);
  }
  return found;
}

describe('validation messages of patterned fields', () => {
  test('every pattern of the OpenAPI document has its words', async () => {
    const { app } = await getHarness();
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const found = patterns(doc);
    assert.ok(found.size >= 8, `patterns found: ${[...found].join(' ')}`);
    const missing = [...found].filter((p) => !PATTERN_MESSAGES[p]);
    assert.deepEqual(missing, []);
  });

  test('answers name the field and say what it must look like', async () => {
    const api = await newWorkspace();
    const search = await api.get('/v1/screening/search?name=Daniel%20Moreno&birth_date=63');
    assert.equal(search.status, 400);
    assert.equal(search.body.message, 'birth_date must be a date (yyyy-MM-dd) or a year (yyyy)');
    assert.deepEqual(search.body.details, [{ path: 'birth_date', message: search.body.message }]);

    const template = await api.post('/v1/templates', { key: 'kyb standard', name: 'KYB' });
    assert.equal(template.status, 400);
    assert.equal(
      template.body.message,
      'key must hold only letters, digits, _ . : - and start with a letter or digit',
    );

    const webhook = await api.post('/v1/webhooks', {
      url: 'https://example.com/hook',
      events: ['Case.Created'],
      signature_header: 'X Signature',
    });
    assert.equal(webhook.status, 400, JSON.stringify(webhook.body));
    assert.doesNotMatch(webhook.body.message, /pattern/);
    assert.match(webhook.body.message, /header name/);

    for (const res of [search, template, webhook]) {
      for (const d of res.body.details) assert.doesNotMatch(d.message, /must match pattern/);
    }
  });
});

describe('one message for a value of the wrong shape', () => {
  test('a country code too long is refused as a country code, not for its length', async () => {
    const api = await newWorkspace();
    for (const url of [
      '/v1/company-data/countries?code=ZZZ',
      '/v1/company-data/search?country=ZZZ&name=acme',
      '/v1/companies?country=FRA',
    ]) {
      const res = await api.get(url);
      assert.equal(res.status, 400, url);
      const field = url.includes('code=') ? 'code' : 'country';
      const words = `${field} must be an ISO 3166-1 alpha-2 country code (e.g. FR)`;
      assert.equal(res.body.message, words, url);
      assert.deepEqual(res.body.details, [{ path: field, message: words }], url);
    }
  });

  test('an empty display text is blank, once', async () => {
    const api = await newWorkspace();
    const res = await api.post('/v1/templates', { key: 'kyb', name: '' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details, [{ path: 'name', message: 'name must not be blank' }]);
  });

  test("an empty value where text is needed says so in the service's words, not the validator's", async () => {
    const api = await newWorkspace();
    // it read "name must NOT have fewer than 1 characters"
    const search = await api.get('/v1/screening/search?name=');
    assert.equal(search.status, 400, JSON.stringify(search.body));
    assert.deepEqual(search.body.details, [{ path: 'name', message: 'name must not be empty' }]);
  });
});

describe('a refused key of an object is named', () => {
  test('a custom property needs a name; a key too long says which key', async () => {
    const api = await newWorkspace();
    for (const name of ['', ' ']) {
      const res = await api.post('/v1/cases', { name: 'x', custom_properties: { [name]: 'v' } });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(res.body.details, [
        {
          path: 'custom_properties',
          message: `custom_properties: the key ${JSON.stringify(name)} must not be blank`,
        },
      ]);
    }
    const long = 'k'.repeat(201);
    const res = await api.post('/v1/cases', { name: 'x', metadata: { [long]: 'v' } });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.details, [
      {
        path: 'metadata',
        message: `metadata: the key "${'k'.repeat(40)}…" must have at most 200 characters`,
      },
    ]);
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0);
    assert.deepEqual((await api.get('/v1/custom-properties/case')).body.data, []);
  });
});

describe('ids the body refers to (bad-input walk)', () => {
  test('an unknown one is a 404 naming its field; an id in capitals is the same id', async () => {
    const api = await newWorkspace();
    const kase = await api.post('/v1/cases', {
      name: 'Referenced ids',
      companies: [{ name: 'Main SAS' }],
      individuals: [{ first_name: 'Ada', last_name: 'Lovelace' }],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const companyId = kase.body.companies[0].id as string;
    const individualId = kase.body.individuals[0].id as string;
    const nobody = '00000000-0000-4000-8000-000000000000';
    const refused: [string, Record<string, unknown>, string, string][] = [
      ['/v1/checks/ekyc', { individual_id: nobody }, 'individual_id', 'Individual not found'],
      ['/v1/checks/online_reputation', { company_id: nobody }, 'company_id', 'Company not found'],
      ['/v1/companies', { case_id: nobody, name: 'X', type: 'affiliated' }, 'case_id', 'Case not found'],
      ['/v1/individuals', { case_id: nobody, first_name: 'X', last_name: 'Y' }, 'case_id', 'Case not found'],
      ['/v1/notes', { case_id: nobody, content: 'x' }, 'case_id', 'Case not found'],
      [
        `/v1/cases/${kase.body.id}/relations`,
        { from_individual_id: individualId, to_company_id: nobody, roles: ['shareholder'] },
        'to_company_id',
        'Company not found',
      ],
      [
        `/v1/cases/${kase.body.id}/relations`,
        { from_individual_id: nobody, to_company_id: companyId, roles: ['shareholder'] },
        'from_individual_id',
        'Individual not found',
      ],
    ];
    for (const [path, body, field, message] of refused) {
      const res = await api.post(path, body);
      assert.equal(res.status, 404, `${path} ${JSON.stringify(res.body)}`);
      assert.equal(res.body.message, message);
      assert.deepEqual(res.body.details, [{ path: field, message: `${field}: ${message}` }]);
    }
    // a company's id in capitals in an entity's relations: the same company
    const upper = await api.post('/v1/individuals', {
      case_id: kase.body.id,
      first_name: 'Grace',
      last_name: 'Hopper',
      relations: [{ to_company_id: companyId.toUpperCase(), roles: ['legal_representative'] }],
    });
    assert.equal(upper.status, 201, JSON.stringify(upper.body));
    const full = await api.get(`/v1/cases/${kase.body.id}`);
    const grace = full.body.individuals.find((i: { id: string }) => i.id === upper.body.id);
    assert.deepEqual(
      grace.relations.map((r: { to_company_id: string }) => r.to_company_id),
      [companyId],
      JSON.stringify(grace),
    );
  });
});

test('a JSON null body is refused by the render route as by every other (its body is optional, not null)', async () => {
  const { app } = await getHarness();
  const api = await newWorkspace();
  const kase = await api.post('/v1/cases', { name: 'Null body', companies: [{ name: 'Main SAS' }] });
  const res = await app.inject({
    method: 'POST',
    url: `/v1/cases/${kase.body.id}/document-templates/mandate/render`,
    headers: { 'x-service-api-key': api.key, 'content-type': 'application/json' },
    payload: 'null',
  });
  assert.equal(res.statusCode, 400, res.body);
  assert.match(res.json().message, /body must be object/);
});
