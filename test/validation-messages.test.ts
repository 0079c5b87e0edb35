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
        message: `metadata: the key "${'k'.repeat(40)}…" must NOT have more than 200 characters`,
      },
    ]);
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0);
    assert.deepEqual((await api.get('/v1/custom-properties/case')).body.data, []);
  });
});
