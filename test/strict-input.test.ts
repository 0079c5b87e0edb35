import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { type Client, getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

/** Reproductions of the input defects found by probing and fuzzing (issue 9), one test each. */

async function caseWithEntities(api: Client) {
  const created = await api.post('/v1/cases', sampleCaseBody());
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body;
}

async function raw(
  method: string,
  url: string,
  key: string,
  payload?: string | Buffer,
  contentType?: string,
) {
  const { app } = await getHarness();
  const res = await app.inject({
    method: method as 'POST',
    url,
    headers: { 'x-service-api-key': key, ...(contentType ? { 'content-type': contentType } : {}) },
    ...(payload !== undefined ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : undefined };
}

function assertRefused(res: { status: number; body: any }, path: string) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.code, 'BAD_REQUEST');
  assert.ok(
    res.body.details.some((d: { path: string }) => d.path === path),
    `details should name ${path}: ${JSON.stringify(res.body.details)}`,
  );
}

describe('strict input: server-owned and unknown fields', () => {
  test('PATCH company cannot move it to another workspace, nor rewrite id, created_at or type', async () => {
    const a = await newWorkspace('a');
    const b = await newWorkspace('b');
    const kase = await caseWithEntities(a);
    const company = kase.companies[0];
    for (const [field, value] of [
      ['workspace_id', b.workspaceId],
      ['id', '00000000-0000-4000-8000-000000000000'],
      ['created_at', '2001-01-01T00:00:00.000Z'],
      ['type', 'affiliated'],
      ['case_id', kase.id],
    ] as const) {
      const res = await a.patch(`/v1/companies/${company.id}`, { [field]: value });
      assertRefused(res, field);
      assert.match(res.body.details[0].message, /set by the server/);
    }
    const after = await a.get(`/v1/companies/${company.id}`);
    assert.equal(after.status, 200);
    assert.equal(after.body.id, company.id);
    assert.equal(after.body.type, company.type);
    assert.equal(after.body.created_at, company.created_at);
    assert.equal((await b.get(`/v1/companies/${company.id}`)).status, 404);
    assert.equal((await b.get('/v1/companies')).body.pagination.count, 0);
    const { ctx } = await getHarness();
    const row = await ctx.db
      .selectFrom('companies')
      .select(['workspace_id', 'case_id'])
      .where('id', '=', company.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { workspace_id: a.workspaceId, case_id: kase.id });
  });

  test("PATCH individual cannot attach it to another workspace's case", async () => {
    const a = await newWorkspace('a');
    const b = await newWorkspace('b');
    const kaseA = await caseWithEntities(a);
    const kaseB = await caseWithEntities(b);
    const person = kaseA.individuals[0];
    assertRefused(await a.patch(`/v1/individuals/${person.id}`, { case_id: kaseB.id }), 'case_id');
    assertRefused(
      await a.patch(`/v1/individuals/${person.id}`, { workspace_id: b.workspaceId }),
      'workspace_id',
    );
    const caseB = await b.get(`/v1/cases/${kaseB.id}`);
    assert.equal(caseB.body.individuals.length, kaseB.individuals.length);
    assert.equal((await a.get(`/v1/individuals/${person.id}`)).body.case_id, kaseA.id);
  });

  test('a misspelt field is a 400 naming it on every write, never a 500 nor silently dropped', async () => {
    const api = await newWorkspace();
    const kase = await caseWithEntities(api);
    const company = kase.companies[0];
    const person = kase.individuals[0];
    const relation = kase.companies[1].relations[0];
    const probes: [string, string, unknown][] = [
      ['patch', `/v1/companies/${company.id}`, { nmae: 'Typo' }],
      ['patch', `/v1/individuals/${person.id}`, { frist_name: 'Typo' }],
      ['patch', `/v1/cases/${kase.id}`, { nmae: 'Typo' }],
      ['patch', `/v1/cases/${kase.id}/relations/${relation.id}`, { rolse: ['shareholder'] }],
      ['post', '/v1/cases', { name: 'x', extrnal_id: 'y' }],
      ['post', '/v1/companies', { case_id: kase.id, type: 'affiliated', name: 'x', contry: 'FR' }],
      ['post', '/v1/individuals', { case_id: kase.id, first_name: 'a', last_name: 'b', emial: 'x' }],
      ['post', '/v1/webhooks', { name: 'w', url: 'https://example.com/h', events: ['*'], evnts: [] }],
      ['post', '/v1/notes', { case_id: kase.id, content: 'hello', autor: 'me' }],
    ];
    for (const [method, url, body] of probes) {
      const res = await (api as any)[method](url, body);
      const field = Object.keys(body as object).find((k) =>
        /nmae|frist|extrnal|contry|emial|rolse|evnts|autor/.test(k),
      )!;
      assertRefused(res, field);
      assert.match(res.body.message, /not allowed/);
    }
    // nested objects are strict too
    assertRefused(
      await api.post('/v1/cases', { name: 'n', companies: [{ name: 'c', type: 'main', adress: {} }] }),
      'companies[0].adress',
    );
    assertRefused(
      await api.patch(`/v1/companies/${company.id}`, { address: { country: 'FR', stret: 'x' } }),
      'address.stret',
    );
    assert.equal((await api.get(`/v1/companies/${company.id}`)).body.name, company.name);
  });

  test('a route that declares no query string or no body refuses one instead of ignoring it', async () => {
    const api = await newWorkspace();
    assertRefused(await api.post('/v1/cases?foo=1', { name: 'x' }), 'foo');
    assertRefused(await api.get('/v1/ping?x=1&y=2'), 'x');
    assert.equal((await api.get('/v1/ping')).status, 200);
    const kase = await caseWithEntities(api);
    assertRefused(
      await api.post(`/v1/cases/${kase.id}/reviews?next_review_at=2030-01-01`, { status: 'approved' }),
      'next_review_at',
    );
    // `permanent` belongs in the query string: in the body it was ignored (a soft delete)
    assertRefused(await api.delete(`/v1/cases/${kase.id}`, { permanent: true }), 'permanent');
    assertRefused(
      await api.delete(`/v1/individuals/${kase.individuals[0].id}`, { cascade: true }),
      'cascade',
    );
    const array = await raw('DELETE', `/v1/cases/${kase.id}`, api.key, '[1]', 'application/json');
    assert.equal(array.status, 400, JSON.stringify(array.body));
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).status, 200, 'nothing was deleted');
    assert.equal((await api.delete(`/v1/cases/${kase.id}`, {})).status, 204, 'an empty object is no body');
    const cases = await api.get('/v1/cases');
    assert.equal(cases.body.pagination.count, 0, 'the refused create stored nothing, the case is deleted');
  });

  test('a query parameter given twice is a 400 saying so, not a complaint about its type', async () => {
    const api = await newWorkspace();
    const kase = await caseWithEntities(api);
    for (const [url, name] of [
      ['/v1/cases?limit=5&limit=6', 'limit'],
      ['/v1/cases?page=1&page=1', 'page'],
      ['/v1/cases?created_at.gt=2020-01-01&created_at.gt=2021-01-01', 'created_at.gt'],
      ['/v1/companies?name=a&name=b', 'name'],
      [`/v1/cases/${kase.id}?include_not_relevant=true&include_not_relevant=false`, 'include_not_relevant'],
      ['/v1/company-data/search?country=FR&name=a&name=b', 'name'],
    ] as const) {
      const res = await api.get(url);
      assert.equal(res.status, 400, url);
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.equal(res.body.details[0].path, name, JSON.stringify(res.body));
      assert.equal(res.body.message, `${name} is given more than once: send it once`, url);
    }
    // an undeclared parameter, repeated, is still refused as unknown
    const unknown = await api.get('/v1/cases?foo=1&foo=2');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.message, 'foo is not a supported parameter');
  });

  test('a number in the URL is written in decimal digits: hex, binary, exponents, blanks are refused', async () => {
    const api = await newWorkspace();
    for (const [url, name] of [
      ['/v1/cases?limit=0x10', 'limit'],
      ['/v1/cases?limit=0b11', 'limit'],
      ['/v1/cases?limit=0o7', 'limit'],
      ['/v1/cases?limit=1e1', 'limit'],
      ['/v1/cases?limit=%205', 'limit'],
      ['/v1/cases?limit=', 'limit'],
      ['/v1/cases?page=2.0', 'page'],
      ['/v1/companies?page=+1', 'page'],
      ['/v1/document-templates/contract/versions/0x1', 'number'],
    ] as const) {
      const res = await api.get(url);
      assert.equal(res.status, 400, url);
      assert.equal(res.body.details[0].path, name, `${url}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.message, `${name} must be an integer written in decimal digits`, url);
    }
    const score = await api.get('/v1/screening/search?name=x&min_score=1e-1');
    assert.equal(score.status, 400);
    assert.equal(score.body.message, 'min_score must be a number written in decimal digits');
    // decimal values read as before
    const listed = await api.get('/v1/cases?limit=16&page=1');
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.pagination.limit, 16);
    assert.equal((await api.get('/v1/cases?limit=0')).body.message, 'limit must be >= 1');
    assert.notEqual((await api.get('/v1/screening/search?name=x&min_score=.5')).status, 400);
  });

  test('the OpenAPI document states that bodies refuse unknown fields and bounds strings', async () => {
    const api = await newWorkspace();
    const doc = (await api.get('/v1/openapi.json')).body;
    // resources are named component schemas, referred to by $ref (src/http/openapi/components.ts)
    const resolve = (schema: any) =>
      schema?.$ref ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
    const body = resolve(
      doc.paths['/v1/companies/{id}'].patch.requestBody.content['application/json'].schema,
    );
    assert.equal(body.additionalProperties, false);
    assert.equal(typeof body.properties.name.maxLength, 'number');
    assert.equal(body.properties.address.additionalProperties, false);
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const schema = resolve(op.requestBody?.content?.['application/json']?.schema);
        if (schema?.type === 'object') assert.equal(schema.additionalProperties, false, `${method} ${path}`);
      }
    }
  });
});

describe('strict input: accepted writes can be read back', () => {
  test('a classification without description is stored and every read answers 200', async () => {
    const api = await newWorkspace();
    const kase = await caseWithEntities(api);
    const company = kase.companies[0];
    const res = await api.patch(`/v1/companies/${company.id}`, {
      classifications: [{ type: 'NACE', code: '62.01' }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.classifications, [{ type: 'NACE', code: '62.01', description: null }]);
    const one = await api.get(`/v1/companies/${company.id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.classifications, [{ type: 'NACE', code: '62.01', description: null }]);
    assert.equal((await api.get(`/v1/cases/${kase.id}`)).status, 200);
    const list = await api.get('/v1/companies');
    assert.equal(list.status, 200);
    assert.ok(list.body.data.some((c: any) => c.classifications?.[0]?.code === '62.01'));
  });
});

describe('strict input: hostile strings and shapes', () => {
  test('a NUL byte in a body, a filter or a path id is a 400 naming where', async () => {
    const api = await newWorkspace();
    const kase = await caseWithEntities(api);
    assertRefused(await api.post('/v1/cases', { name: 'a\u0000b' }), 'name');
    assertRefused(
      await api.patch(`/v1/individuals/${kase.individuals[0].id}`, { middle_name: 'x\u0000' }),
      'middle_name',
    );
    assertRefused(await api.get('/v1/cases?name=a%00b'), 'name');
    assertRefused(await api.get('/v1/cases/abc%00def'), 'id');
    assertRefused(
      await api.post('/v1/cases', { name: 'ok', metadata: { 'k\u0000': 'v' } }),
      // named with an escape: the path does not carry the NUL itself
      'metadata.k\\u0000',
    );
    assertRefused(await api.patch('/v1/cases/abc%00', { name: 'x' }), 'id');
    assertRefused(await api.delete('/v1/companies/abc%00def'), 'id');
    // the refused writes are in the audit log too (a NUL cannot be stored: U+FFFD in its place)
    const { ctx } = await getHarness();
    const refused = await ctx.db
      .selectFrom('audit_log')
      .select(['method', 'resource_id', 'status_code'])
      .where('workspace_id', '=', api.workspaceId)
      .where('status_code', '=', 400)
      .orderBy('occurred_at')
      .execute();
    assert.equal(refused.length, 5, JSON.stringify(refused));
    assert.deepEqual(
      refused.slice(3).map((r) => [r.method, r.resource_id]),
      [
        ['PATCH', 'abc\ufffd'],
        ['DELETE', 'abc\ufffddef'],
      ],
    );
  });

  test('a control character (an escape sequence, a bell) is refused; tab, line feed and carriage return are text', async () => {
    const api = await newWorkspace();
    const kase = await caseWithEntities(api);
    const bell = await api.post('/v1/cases', { name: 'Acme\u0007\u001b[31mRED' });
    assertRefused(bell, 'name');
    assert.equal(bell.body.message, 'name must not contain a control character (\\u0007)');
    assertRefused(await api.get('/v1/cases?name=a%1Bb'), 'name');
    assertRefused(await api.patch(`/v1/companies/${kase.companies[0].id}`, { name: 'Acme\u007f' }), 'name');
    // C1: U+009B introduces an escape sequence on 8-bit terminals; U+0085 is a next-line control
    const csi = await api.post('/v1/notes', { case_id: kase.id, content: 'x\u009b31my' });
    assertRefused(csi, 'content');
    assert.equal(csi.body.message, 'content must not contain a control character (\\u009b)');
    assertRefused(await api.post('/v1/cases', { name: 'a\u0085b' }), 'name');
    assertRefused(
      await api.patch(`/v1/individuals/${kase.individuals[0].id}`, { first_name: 'Ann\u0080' }),
      'first_name',
    );
    const nonCharacter = await api.post('/v1/cases', { name: 'a\uffffb' });
    assertRefused(nonCharacter, 'name');
    assert.equal(nonCharacter.body.message, 'name must not contain a noncharacter (\\uffff): it is no text');
    // the letters after them are text: é, ÿ, and the non-breaking space U+00A0
    assert.equal((await api.post('/v1/cases', { name: 'Café\u00a0Ÿ ÿ' })).status, 201);
    const note = await api.post('/v1/notes', { case_id: kase.id, content: 'line one\r\n\tline two' });
    assert.equal(note.status, 201, JSON.stringify(note.body));
  });

  test('a bidirectional override (shows text in another order) is refused; right-to-left text and isolates are text', async () => {
    const api = await newWorkspace();
    const kase = await caseWithEntities(api);
    const spoof = await api.post('/v1/cases', {
      name: 'invoice\u202Efdp.exe',
      companies: [{ name: 'Main' }],
    });
    assertRefused(spoof, 'name');
    assert.equal(
      spoof.body.message,
      'name must not contain a bidirectional override (\\u202e): it shows text in another order than it is written',
    );
    assertRefused(
      await api.patch(`/v1/companies/${kase.companies[0].id}`, { name: 'Acme \u202DSAS' }),
      'name',
    );
    assertRefused(await api.get('/v1/cases?name=a%E2%80%AEb'), 'name');
    // written as an HTML character reference in a note (its HTML is shown decoded)
    for (const reference of ['&#x202E;', '&#X202e;', '&#8238;', '&#x0202d;', '&#8237'] as const) {
      const note = await api.post('/v1/notes', {
        case_id: kase.id,
        content: `<p>invoice${reference}fdp.exe</p>`,
      });
      assertRefused(note, 'content');
      assert.equal(
        note.body.message,
        `content must not contain a bidirectional override (${reference.replace(/;$/, '')}): it shows text in another order than it is written`,
      );
    }
    // another character's reference is text
    const fine = await api.post('/v1/notes', {
      case_id: kase.id,
      content: '<p>&#x202E0; &#82380; &#233;</p>',
    });
    assert.equal(fine.status, 201, JSON.stringify(fine.body));
    // a refused key is named with escapes, not echoed as it is
    const key = await api.post('/v1/cases', {
      name: 'keys',
      companies: [{ name: 'Main' }],
      metadata: { 'k\u202Ek': 'v' },
    });
    assertRefused(key, 'metadata.k\\u202ek');
    assert.ok(!JSON.stringify(key.body).includes('\u202E'), JSON.stringify(key.body));
    // Arabic and Hebrew names, and an isolate a word processor may insert around them, are kept
    const rtl = await api.patch(`/v1/companies/${kase.companies[0].id}`, {
      name: 'شركة الاختبار \u2067שלום\u2069',
    });
    assert.equal(rtl.status, 200, JSON.stringify(rtl.body));
    assert.equal(rtl.body.name, 'شركة الاختبار \u2067שלום\u2069');
  });

  test('lone surrogates and invalid UTF-8 are refused, not stored as U+FFFD', async () => {
    const api = await newWorkspace();
    const lone = await raw('POST', '/v1/cases', api.key, '{"name":"a\\ud800b"}', 'application/json');
    assertRefused(lone, 'name');
    const invalid = Buffer.concat([
      Buffer.from('{"name":"caf'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const res = await raw('POST', '/v1/cases', api.key, invalid, 'application/json');
    assertRefused(res, 'body');
    assert.match(res.body.message, /UTF-8/);
    const badUrl = await raw('GET', '/v1/cases?name=%C3%28', api.key);
    assertRefused(badUrl, 'url');
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0);
  });

  test('string lengths, array sizes, nesting depth and numbers are bounded', async () => {
    const api = await newWorkspace();
    const kase = await caseWithEntities(api);
    const person = kase.individuals[0];
    const big = 'x'.repeat(1024 * 1024);
    const long = await api.patch(`/v1/individuals/${person.id}`, { middle_name: big });
    assertRefused(long, 'middle_name');
    assert.match(long.body.details[0].message, /must have at most \d+ characters/);
    assertRefused(await api.post('/v1/cases', { name: 'n', tags: Array(5000).fill('t') }), 'tags');
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100; i++) deep = { k: deep };
    const deepRes = await api.post('/v1/cases', { name: 'n', custom_properties: { a: deep } });
    assert.equal(deepRes.status, 400);
    // a custom property is a string, boolean, number, string array or null: a too-long array is
    // refused naming the limit, not with another branch's "must be string"
    const manyItems = await api.post('/v1/cases', {
      name: 'n',
      custom_properties: { tags: Array(1001).fill('t') },
    });
    assertRefused(manyItems, 'custom_properties.tags');
    assert.equal(manyItems.body.message, 'custom_properties.tags must have at most 1000 items');
    const badItem = await api.post('/v1/cases', { name: 'n', custom_properties: { tags: ['t', 7] } });
    assertRefused(badItem, 'custom_properties.tags[1]');
    assert.equal(badItem.body.message, 'custom_properties.tags[1] must be string');
    const longValue = await api.post('/v1/cases', {
      name: 'n',
      custom_properties: { note: 'x'.repeat(1001) },
    });
    assert.equal(longValue.body.message, 'custom_properties.note must have at most 1000 characters');
    const wrongType = await api.post('/v1/cases', { name: 'n', custom_properties: { note: { a: 1 } } });
    assertRefused(wrongType, 'custom_properties.note');
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 1);
    const hugeInt = await api.get('/v1/cases?page=99999999999999999999');
    assertRefused(hugeInt, 'page');
    assertRefused(await api.get('/v1/cases?limit=0'), 'limit');
    assertRefused(await api.get('/v1/cases?page=abc'), 'page');
    assertRefused(await api.get('/v1/cases?sort=nope'), 'sort');
    assertRefused(await api.get('/v1/cases?unknown=1'), 'unknown');
    assert.equal((await api.get(`/v1/individuals/${person.id}`)).body.middle_name, person.middle_name);
  });

  test('a DELETE with a JSON content type and an empty body is accepted', async () => {
    const api = await newWorkspace();
    const kase = await caseWithEntities(api);
    const res = await raw('DELETE', `/v1/companies/${kase.companies[2].id}`, api.key, '', 'application/json');
    assert.equal(res.status, 204);
    const bad = await raw('POST', '/v1/cases', api.key, '{"name":', 'application/json');
    assertRefused(bad, 'body');
    assert.match(bad.body.message, /not valid JSON/);
    // the parser's own reason, with where it stopped
    assert.match(bad.body.message, /position 8|end of JSON input/);
    // valid JSON with a key that would reach a prototype: that key is named, nothing is written
    const before = (await api.get('/v1/cases')).body.pagination.count;
    for (const [body, key] of [
      ['{"name":"Proto","__proto__":{"status":"approved"}}', '__proto__'],
      ['{"name":"Proto","metadata":{"constructor":{"prototype":{"x":1}}}}', 'constructor'],
    ]) {
      const res = await raw('POST', '/v1/cases', api.key, body, 'application/json');
      assertRefused(res, key);
      assert.match(res.body.message, new RegExp(`^${key} is not allowed as a key`));
    }
    assert.equal((await api.get('/v1/cases')).body.pagination.count, before);
  });

  test('a text/plain body is a 415 with the error body; an empty one with that header is no body', async () => {
    const api = await newWorkspace();
    const kase = await caseWithEntities(api);
    const text = await raw('POST', '/v1/cases', api.key, JSON.stringify({ name: 'Plain' }), 'text/plain');
    assert.equal(text.status, 415);
    assert.equal(text.body.code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.match(text.body.message, /application\/json/);
    const listed = await raw('GET', '/v1/cases?name=Plain', api.key);
    assert.equal(listed.body.data.length, 0);
    const del = await raw('DELETE', `/v1/companies/${kase.companies[2].id}`, api.key, '', 'text/plain');
    assert.equal(del.status, 204);
  });

  test('a key written twice in a JSON body is a 400 naming where, not its last value taken', async () => {
    const api = await newWorkspace();
    for (const [body, path] of [
      ['{"name":"first","name":"second"}', 'name'],
      ['{"name":"x","companies":[{"ref":"c","type":"main","name":"C","name":"D"}]}', 'companies[0].name'],
      [
        '{"name":"x","companies":[{"type":"main","name":"C"},{"type":"affiliated","name":"E","address":{"city":"A","city":"B"}}]}',
        'companies[1].address.city',
      ],
      // the same key written with an escape is the same key
      ['{"name":"x","n\\u0061me":"y"}', 'name'],
    ] as const) {
      const res = await raw('POST', '/v1/cases', api.key, body, 'application/json');
      assert.equal(res.status, 400, `${body}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.details[0].path, path, body);
      assert.equal(res.body.message, `${path} is given more than once: send it once`);
    }
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0);
    // the same key in two objects, or a key's name inside a string value, is no repetition
    const fine = await raw(
      'POST',
      '/v1/cases',
      api.key,
      '{"name":"\\"name\\": twice, name","companies":[{"type":"main","name":"C"},{"type":"affiliated","name":"D"}]}',
      'application/json',
    );
    assert.equal(fine.status, 201, JSON.stringify(fine.body));
    assert.equal(fine.body.name, '"name": twice, name');
  });

  test('a compressed body (Content-Encoding) is a 415 naming the header, neither misread nor taken', async () => {
    const api = await newWorkspace();
    const { app } = await getHarness();
    const send = async (encoding: string, payload: Buffer | string, url = '/v1/cases') => {
      const res = await app.inject({
        method: 'POST',
        url,
        headers: {
          'x-service-api-key': api.key,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        payload,
      });
      return { status: res.statusCode, body: JSON.parse(res.body) };
    };
    const gz = await send('gzip', gzipSync(JSON.stringify({ name: 'Zipped' })));
    assert.equal(gz.status, 415, JSON.stringify(gz.body));
    assert.equal(gz.body.code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal(gz.body.details[0].path, 'content-encoding');
    assert.match(gz.body.message, /Content-Encoding gzip .*uncompressed/);
    // a plain body labelled as compressed is not taken either
    const labelled = await send('br', JSON.stringify({ name: 'Zipped' }));
    assert.equal(labelled.status, 415);
    assert.equal((await api.get('/v1/cases?name=Zipped')).body.data.length, 0);
    // an upload is refused the same way, before its handler reads the file
    const upload = await app.inject({
      method: 'POST',
      url: '/v1/files/upload',
      headers: {
        'x-service-api-key': api.key,
        'content-type': 'multipart/form-data; boundary=x',
        'content-encoding': 'gzip',
      },
      payload: '--x\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhi\r\n--x--\r\n',
    });
    assert.equal(upload.statusCode, 415, upload.body);
    assert.equal(JSON.parse(upload.body).details[0].path, 'content-encoding');
    // identity is no coding at all
    const plain = await send('identity', JSON.stringify({ name: 'Plain coded' }));
    assert.equal(plain.status, 201, JSON.stringify(plain.body));
  });
});

test('a JSON body declared in another charset than UTF-8 is a 415 naming it; UTF-8 and ASCII are read', async () => {
  const api = await newWorkspace();
  const { app } = await getHarness();
  const send = (contentType: string, name: string) =>
    app.inject({
      method: 'POST',
      url: '/v1/cases',
      headers: { 'x-service-api-key': api.key, 'content-type': contentType },
      payload: JSON.stringify({ name }),
    });
  for (const charset of ['utf-16', 'ISO-8859-1', '"windows-1252"']) {
    const res = await send(`application/json; charset=${charset}`, `Declared ${charset}`);
    assert.equal(res.statusCode, 415, res.body);
    const body = JSON.parse(res.body);
    assert.equal(body.details[0].path, 'content-type');
    assert.match(body.message, new RegExp(`charset ${charset.replaceAll('"', '')} is not read here`));
  }
  assert.equal((await api.get('/v1/cases?name.like=Declared%25')).body.data.length, 0);
  for (const charset of ['utf-8', 'UTF-8', 'utf8', '"utf-8"', 'us-ascii'])
    assert.equal(
      (await send(`application/json; charset=${charset}`, `Read ${charset}`)).statusCode,
      201,
      charset,
    );
});

describe('strict input: a body that is not what the request needs', () => {
  test('an oversized array is one detail, and a body of many wrong items lists at most 100', async () => {
    const api = await newWorkspace();
    // 20,000 wrong items made 20,001 details, read in seconds of the one thread every request shares
    const over = await api.post('/v1/cases', { name: 'n', tags: Array(20_000).fill(1) });
    assertRefused(over, 'tags');
    assert.equal(over.body.details.length, 1, `${over.body.details.length} details`);
    assert.deepEqual(over.body.details, [{ path: 'tags', message: 'tags must have at most 1000 items' }]);
    const nested = await api.post('/v1/cases', {
      name: 'n',
      companies: [{ type: 'main', name: 'Acme', classifications: Array(5000).fill('x') }],
    });
    assert.deepEqual(nested.body.details, [
      {
        path: 'companies[0].classifications',
        message: 'companies[0].classifications must have at most 1000 items',
      },
    ]);
    // within the limits, 500 wrong items: the answer names the first ones, not all
    const many = await api.post('/v1/cases', {
      name: 'n',
      individuals: Array.from({ length: 500 }, () => ({ first_name: 1, last_name: 2 })),
    });
    assertRefused(many, 'individuals[0].first_name');
    assert.ok(many.body.details.length <= 100, `${many.body.details.length} details`);
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0);
  });

  test('past the shared cap, the limit stated is the field\'s own (walk: 1,001 individuals read "at most 1000")', async () => {
    const api = await newWorkspace();
    const many = (n: number) => Array.from({ length: n }, (_, i) => `x${i}`);
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    const refused = (res: { status: number; body: any }, path: string, message: string) => {
      assert.equal(res.status, 400, JSON.stringify(res.body).slice(0, 300));
      assert.deepEqual(res.body.details, [{ path, message }]);
      assert.equal(res.body.message, message);
    };
    const individuals = Array.from({ length: 1001 }, () => ({ first_name: 'A', last_name: 'B' }));
    for (const n of [501, 1001]) {
      refused(
        await api.post('/v1/cases', { name: 'n', individuals: individuals.slice(0, n) }),
        'individuals',
        'individuals must have at most 500 items',
      );
      refused(
        await api.post('/v1/cases', { name: 'n', companies: Array(n).fill({ name: 'Acme' }) }),
        'companies',
        'companies must have at most 500 items',
      );
    }
    const kase = await api.post('/v1/cases', { name: 'Limits' });
    assert.equal(kase.status, 201);
    for (const n of [101, 1001, 5000])
      refused(
        await api.post(`/v1/cases/${kase.body.id}/tags`, { tags: many(n) }),
        'tags',
        'tags must have at most 100 items',
      );
    refused(
      await api.patch('/v1/checks/aml/00000000-0000-4000-8000-000000000000/hits/review', {
        action: 'ignore',
        hit_ids: many(1001),
      }),
      'hit_ids',
      'hit_ids must have at most 100 items',
    );
    for (const n of [201, 1001])
      refused(
        await api.patch(`/v1/cases/${kase.body.id}`, {
          metadata: Object.fromEntries(many(n).map((k) => [k, k])),
        }),
        'metadata',
        'metadata must have at most 200 fields',
      );
    refused(
      await api.post(`/v1/cases/${kase.body.id}/risks`, { level: 'low', components: keys(1001) }),
      'components',
      'components must have at most 200 fields',
    );
    // nested in an array: each item's own schema (a company of the case's graph)
    refused(
      await api.post('/v1/cases', {
        name: 'n',
        companies: [{ name: 'Acme', custom_properties: keys(1001) }],
      }),
      'companies[0].custom_properties',
      'companies[0].custom_properties must have at most 200 fields',
    );
    // a field the schema bounds only by the cap keeps the cap
    refused(
      await api.post('/v1/cases', { name: 'n', tags: many(1001) }),
      'tags',
      'tags must have at most 1000 items',
    );
    const stored = (await api.get(`/v1/cases/${kase.body.id}`)).body;
    assert.deepEqual([stored.tags, stored.metadata ?? null], [[], null]);
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 1, 'nothing else written');
  });

  test('an object of too many keys is one detail, refused before its keys are walked', async () => {
    const api = await newWorkspace();
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    // 100,000 keys took a fifth of a second of walking and validating before their 400
    const top = await api.post('/v1/cases', { name: 'n', ...keys(5000) });
    assertRefused(top, 'body');
    // past the cap, the limit stated is the schema's: the body takes its declared fields only
    assert.equal(top.body.details.length, 1);
    const declared = Number(/^body must have at most (\d+) fields$/.exec(top.body.message)?.[1]);
    assert.ok(declared > 5 && declared < 50, top.body.message);
    const nested = await api.post('/v1/cases', { name: 'n', metadata: keys(5000) });
    assert.deepEqual(nested.body.details, [
      { path: 'metadata', message: 'metadata must have at most 200 fields' },
    ]);
    // up to the cap, the schema's own bound speaks (a free-form record takes 200)
    const record = await api.post('/v1/cases', { name: 'n', metadata: keys(1000) });
    assertRefused(record, 'metadata');
    assert.equal(record.body.message, 'metadata must have at most 200 fields');
    const query = await api.get(`/v1/cases?${Array.from({ length: 1001 }, (_, i) => `q${i}=1`).join('&')}`);
    assert.deepEqual(query.body.details, [
      { path: 'querystring', message: 'querystring must have at most 200 fields' },
    ]);
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0);
  });

  test('a JSON null is not an object, and a PUT needs its body', async () => {
    const api = await newWorkspace();
    const kase = await caseWithEntities(api);
    const settings = await api.patch('/v1/workspace/settings', {
      case_review: { comment_mandatory: true },
      checks: { limit: 77 },
    });
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    // a PUT replaces every setting ({} resets them all): sent nothing or null, it changes nothing
    for (const [payload, type] of [
      ['null', 'application/json'],
      ['', 'application/json'],
      [undefined, undefined],
    ] as const) {
      const put = await raw('PUT', '/v1/workspace/settings', api.key, payload, type);
      assertRefused(put, 'body');
      assert.equal(
        put.body.message,
        payload === 'null'
          ? 'body must be object'
          : 'body is required: a PUT replaces every field, and {} resets them all',
      );
    }
    const kept = (await api.get('/v1/workspace/settings')).body;
    assert.equal(kept.case_review.comment_mandatory, true);
    assert.equal(kept.checks.limit, 77);
    // null on a route whose fields are all optional: refused, where no body at all is {}
    const webhook = await api.post('/v1/webhooks', { url: 'https://example.com/h', events: ['*'] });
    for (const url of [`/v1/cases/${kase.id}`, `/v1/webhooks/${webhook.body.id}/rotate-secret`]) {
      const method = url.endsWith('rotate-secret') ? 'POST' : 'PATCH';
      const res = await raw(method, url, api.key, 'null', 'application/json');
      assertRefused(res, 'body');
      assert.equal(res.body.message, 'body must be object');
    }
    const after = await api.get(`/v1/webhooks/${webhook.body.id}`);
    assert.equal(after.body.secret, webhook.body.secret, 'the secret was not rotated');
    // no body at all on a POST whose fields are optional is still {}
    assert.equal((await raw('POST', `/v1/cases/${kase.id}/generate-report`, api.key)).status, 204);
  });
});
