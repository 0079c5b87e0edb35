/**
 * The OpenAPI document as client generators read it (issue 16): an operationId, summary and
 * description on every operation, declared tags, named component schemas reused by reference,
 * servers from the request, the operator endpoints' bearer scheme, the custom formats, the webhook
 * events, and examples that are real answers of the service. The linter's verdict is in
 * test/openapi-lint.test.ts.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { CHECK_TYPE_DEFINITIONS } from '../src/checks/registry.ts';
import { TOP_LEVEL_EVENTS } from '../src/events/catalog.ts';
import { checkSchemaName } from '../src/http/openapi/components.ts';
import { OPERATION_IDS } from '../src/http/openapi/operation-ids.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

type Doc = any;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function operations(doc: Doc): { key: string; op: Doc }[] {
  const out: { key: string; op: Doc }[] = [];
  for (const [p, item] of Object.entries<Doc>(doc.paths)) {
    for (const m of METHODS) if (item[m]) out.push({ key: `${m.toUpperCase()} ${p}`, op: item[m] });
  }
  return out;
}

describe('OpenAPI document', () => {
  let doc: Doc;
  before(async () => {
    const { app } = await getHarness();
    const res = await app.inject({
      method: 'GET',
      url: '/v1/openapi.json',
      headers: { host: 'api.bank.example:8443' },
    });
    assert.equal(res.statusCode, 200);
    doc = res.json();
  });

  test('servers name the address the client reached, or the configured public address', async () => {
    assert.deepEqual(
      doc.servers.map((s: Doc) => s.url),
      ['http://api.bank.example:8443'],
    );
    const { ctx } = await getHarness();
    const { buildApp } = await import('../src/http/app.ts');
    const published = await buildApp({
      ...ctx,
      config: { ...ctx.config, publicUrl: 'https://kyc.bank.example' },
    });
    try {
      const res = await published.inject({
        method: 'GET',
        url: '/v1/openapi.json',
        headers: { host: 'localhost:3160' },
      });
      assert.deepEqual(
        res.json().servers.map((s: Doc) => s.url),
        ['https://kyc.bank.example'],
      );
      assert.equal(res.headers['cache-control'], 'no-store');
    } finally {
      await published.close();
    }
    // a Host that is not a host name is not copied into the document (a link a page would render)
    const { app } = await getHarness();
    for (const host of ['a"b<script>', 'evil.example/path', 'x y']) {
      const res = await app.inject({ method: 'GET', url: '/v1/openapi.json', headers: { host } });
      assert.equal(res.statusCode, 200, host);
      assert.deepEqual(
        res.json().servers.map((s: Doc) => s.url),
        ['/'],
        host,
      );
    }
    const v6 = await app.inject({ method: 'GET', url: '/v1/openapi.json', headers: { host: '[::1]:3000' } });
    assert.deepEqual(
      v6.json().servers.map((s: Doc) => s.url),
      ['http://[::1]:3000'],
    );
  });

  test('every operation has a unique camelCase operationId, a summary, a description and declared tags', () => {
    const declared = new Set(doc.tags.map((t: Doc) => t.name));
    for (const t of doc.tags) assert.ok(t.description, `tag ${t.name} has a description`);
    const seen = new Map<string, string>();
    const ops = operations(doc);
    assert.ok(ops.length > 100, `${ops.length} operations`);
    for (const { key, op } of ops) {
      assert.match(
        op.operationId ?? '',
        /^[a-z][A-Za-z0-9]+$/,
        `${key}: operationId (add it to src/http/openapi/operation-ids.ts)`,
      );
      assert.ok(
        !seen.has(op.operationId),
        `${key}: ${op.operationId} also used by ${seen.get(op.operationId)}`,
      );
      seen.set(op.operationId, key);
      assert.ok(op.summary, `${key}: summary`);
      assert.ok(op.description && op.description !== op.summary, `${key}: description`);
      assert.ok(op.tags?.length, `${key}: tags`);
      for (const t of op.tags) assert.ok(declared.has(t), `${key}: tag ${t} is declared`);
      // every answer says what it is: no fastify-swagger placeholder
      for (const [status, res] of Object.entries(op.responses as Record<string, Doc>)) {
        assert.ok(res.description && res.description !== 'Default Response', `${key} ${status}: description`);
      }
    }
    const casesList = doc.paths['/v1/cases'].get.responses['200'].description;
    assert.match(casesList, /^A page of \w* ?items, with the pagination$/);
    assert.equal(doc.paths['/v1/cases'].post.responses['201'].description, 'Created: the CaseDetailed');
    // every POST declares the Idempotency-Key it honours, the upload too (its file is its body)
    const key = (op: Doc) => (op.parameters ?? []).find((p: Doc) => p.name === 'Idempotency-Key');
    assert.equal(key(doc.paths['/v1/cases'].post)?.in, 'header');
    assert.ok(doc.paths['/v1/cases'].post.responses['201'].headers['idempotent-replayed']);
    assert.equal(key(doc.paths['/v1/files/upload'].post)?.in, 'header');
    // the table names no operation that does not exist (a renamed route leaves no stale name)
    for (const key of Object.keys(OPERATION_IDS))
      assert.ok(
        ops.some((o) => o.key === key),
        `${key} is documented`,
      );
  });

  test("the render answer's headers are declared, so a generated client can read them", () => {
    const ok = doc.paths['/v1/cases/{id}/document-templates/{key}/render'].post.responses['200'];
    // its own headers (capitalised), besides the plumbing's on every answer (x-request-id, ...)
    const own = Object.fromEntries(Object.entries<Doc>(ok.headers).filter(([name]) => name.startsWith('X-')));
    assert.deepEqual(Object.keys(own).sort(), [
      'X-Document-Pages',
      'X-Document-Template-Version',
      'X-Missing-Placeholders',
      'X-Missing-Placeholders-Count',
    ]);
    assert.deepEqual(ok.headers['x-request-id'], { $ref: '#/components/headers/RequestId' });
    for (const h of Object.values<Doc>(own)) {
      assert.equal(h.schema.type, 'string');
      assert.ok(h.description.length > 10);
    }
    assert.deepEqual(Object.keys(ok.content), ['application/pdf']);
  });

  test('a body whose fields are all optional may be left out, and the document says so', async () => {
    const required = (path: string, method: string) => doc.paths[path][method].requestBody.required;
    for (const [path, method] of [
      ['/v1/cases/{id}/generate-report', 'post'],
      ['/v1/cases/{id}', 'patch'],
      ['/v1/checks/id_document/{id}/force_review', 'post'],
      ['/v1/webhooks/{id}/rotate-secret', 'post'],
    ])
      assert.equal(required(path, method), false, `${method} ${path}`);
    // a body with required fields, and a PUT (it replaces everything: {} resets it), are required
    assert.equal(required('/v1/cases', 'post'), true);
    assert.equal(required('/v1/workspace/settings', 'put'), true);
    // as the service behaves: no body is {} there, and a 400 on the PUT
    const api = await newWorkspace();
    const kase = await api.post('/v1/cases', { name: 'No body' });
    const { app } = await getHarness();
    const key = { 'x-service-api-key': api.key };
    const report = await app.inject({
      method: 'POST',
      url: `/v1/cases/${kase.body.id}/generate-report`,
      headers: key,
    });
    assert.equal(report.statusCode, 204, report.body);
    const put = await app.inject({ method: 'PUT', url: '/v1/workspace/settings', headers: key });
    assert.equal(put.statusCode, 400, put.body);
  });

  test('verbs a client would call', () => {
    const ids = new Map(operations(doc).map(({ key, op }) => [key, op.operationId]));
    assert.equal(ids.get('POST /v1/cases'), 'createCase');
    assert.equal(ids.get('GET /v1/cases'), 'listCases');
    assert.equal(ids.get('GET /v1/cases/{id}'), 'getCase');
    assert.equal(ids.get('PATCH /v1/checks/aml/{id}/review'), 'reviewAmlCheck');
    assert.equal(ids.get('POST /v1/cases/{id}/reviews'), 'reviewCase');
  });

  test('resources are named component schemas, reused by reference', () => {
    const schemas = doc.components.schemas;
    const names = [
      'Case',
      'CaseDetailed',
      'Company',
      'Individual',
      'CaseRelation',
      'Check',
      'Webhook',
      'ErrorBody',
      ...CHECK_TYPE_DEFINITIONS.map((d) => checkSchemaName(d.type)),
    ];
    for (const n of names) assert.ok(schemas[n], `components.schemas.${n}`);
    const ref = (op: Doc, status: string) => op.responses[status].content['application/json'].schema.$ref;
    assert.equal(ref(doc.paths['/v1/cases/{id}'].get, '200'), '#/components/schemas/CaseDetailed');
    assert.equal(ref(doc.paths['/v1/companies/{id}'].get, '200'), '#/components/schemas/Company');
    assert.equal(ref(doc.paths['/v1/checks/aml/{id}'].get, '200'), '#/components/schemas/AmlCheck');
    assert.equal(ref(doc.paths['/v1/webhooks/{id}'].get, '200'), '#/components/schemas/Webhook');
    assert.equal(
      doc.paths['/v1/cases'].post.requestBody.content['application/json'].schema.$ref,
      '#/components/schemas/CaseCreate',
    );
    // a component refers to the others it contains
    assert.equal(schemas.CaseDetailed.properties.companies.items.$ref, '#/components/schemas/Company');
    // every reference resolves
    const text = JSON.stringify(doc);
    for (const m of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g))
      assert.ok(schemas[m[1]], `${m[1]} exists`);
  });

  test('the operator endpoints declare their bearer scheme; /v1 the API key', () => {
    assert.equal(doc.components.securitySchemes.AdminBearer.scheme, 'bearer');
    for (const { key, op } of operations(doc)) {
      if (key.includes(' /admin/')) assert.deepEqual(op.security, [{ AdminBearer: [] }], key);
      else assert.equal(op.security, undefined, `${key} uses the document's ApiKey`);
    }
    assert.deepEqual(doc.security, [{ ApiKey: [] }]);
  });

  test('custom formats are declared', () => {
    for (const f of ['alpha-2', 'e.164', 'tag-label']) assert.ok(doc['x-formats'][f], f);
    assert.match(doc.info.description, /alpha-2/);
  });

  test('webhook events are documented under webhooks: every event sent, none that is never sent', () => {
    // subscribable (the reference announces them) but never recorded by this service
    const neverSent = [
      'AutonomyChatRun.Completed',
      'AutonomyChatRun.Failed',
      'Case.ReviewUpdated',
      'Note.Updated',
      'Note.Deleted',
      'NoteComment.Updated',
      'NoteComment.Deleted',
    ];
    assert.deepEqual(
      Object.keys(doc.webhooks).sort(),
      TOP_LEVEL_EVENTS.filter((n) => !neverSent.includes(n)).sort(),
    );
    for (const [e, item] of Object.entries<Doc>(doc.webhooks)) {
      const op = item.post;
      const body = op.requestBody.content['application/json'].schema;
      assert.deepEqual(body.properties.event.enum, [e]);
      assert.equal(body.additionalProperties, false, e);
      assert.ok(
        op.parameters.some((p: Doc) => p.name === 'webhook-signature'),
        `${e} signature header`,
      );
    }
    const body = (e: string) => doc.webhooks[e].post.requestBody.content['application/json'].schema;
    assert.deepEqual(body('Case.Updated').properties.case.anyOf, [
      { $ref: '#/components/schemas/CaseDetailed' },
      { $ref: '#/components/schemas/Case' },
    ]);
    assert.deepEqual(body('Case.Updated').required, ['event', 'context', 'case']);
    assert.equal(
      body('Check.Approved').properties.check.discriminator.mapping.ekyc,
      '#/components/schemas/EkycCheck',
    );
    assert.deepEqual(body('NoteComment.Created').required, ['event', 'context', 'noteComment', 'note']);
  });

  test('webhook headers say what a delivery sends: webhook-id names the delivery, deduplication is on context.event_id', () => {
    // it once said "The event id: deduplicate on it.", but it is msg_<delivery id>, new for each
    // replay of an event: a receiver deduplicating on it processed replayed events twice
    for (const [e, item] of Object.entries<Doc>(doc.webhooks)) {
      const id = item.post.parameters.find((p: Doc) => p.name === 'webhook-id');
      assert.ok(id, `${e} webhook-id header`);
      assert.doesNotMatch(id.description, /event id/i, e);
      assert.match(id.description, /msg_<delivery id>/, e);
      assert.match(id.description, /Deduplicate on the body's `context\.event_id`, not on it/, e);
    }
    assert.match(
      doc.components.schemas.WebhookDeliveryContext.properties.event_id.description,
      /Deduplicate on it/,
    );
  });

  test('examples are captured answers of the service', () => {
    const create = doc.paths['/v1/cases'].post;
    const req = create.requestBody.content['application/json'].example;
    const res = create.responses['201'].content['application/json'].example;
    assert.equal(req.name, 'Maison Lumière onboarding');
    assert.equal(res.name, req.name);
    assert.match(res.id, /^[0-9a-f-]{36}$/);
    const withExamples = operations(doc).filter(({ op }) =>
      Object.values<Doc>(op.responses).some((r) => r.content?.['application/json']?.example !== undefined),
    );
    assert.ok(withExamples.length >= 70, `${withExamples.length} operations have a response example`);
  });

  test('every JSON request body and every JSON success answer has an example', () => {
    // no exception: every operation is reached by scripts/openapi-examples.ts's scenario
    const missing: string[] = [];
    for (const { key, op } of operations(doc)) {
      const body = op.requestBody?.content?.['application/json'];
      if (body && body.example === undefined && body.examples === undefined) missing.push(`${key} request`);
      for (const [status, res] of Object.entries<Doc>(op.responses)) {
        const media = res.content?.['application/json'];
        if (status.startsWith('2') && media && media.example === undefined && media.examples === undefined)
          missing.push(`${key} ${status}`);
      }
    }
    assert.deepEqual(
      missing,
      [],
      'reach them in scripts/openapi-examples.ts, then run npm run openapi:examples',
    );
  });

  test('examples carry no secret: keys, signing secrets, portal tokens and passwords are placeholders', () => {
    const text = JSON.stringify(doc.paths);
    for (const m of text.matchAll(/\bvk_[A-Za-z0-9_-]{16,}/g)) assert.match(m[0], /^vk_.{6}(EXAMPLE)+/, m[0]);
    for (const m of text.matchAll(/\bvcp_[A-Za-z0-9_-]{16,}/g)) assert.match(m[0], /^vcp_(EXAMPLE)+/, m[0]);
    for (const m of text.matchAll(/"secret":"([^"]*)"/g))
      assert.equal(
        Buffer.from(m[1].replace(/^whsec_/, ''), 'base64').toString(),
        'example-webhook-signing-secret',
      );
    for (const m of text.matchAll(/"password":"([^"]*)"/g)) assert.match(m[1], /^example-/);
    assert.match(text, /"api_key":"vk_/, 'the key examples were checked');
  });

  test('every write route accepts its own request example: no example body is refused for a field', async () => {
    // each example is sent to its route in a new workspace, its path ids replaced by unknown ones:
    // the body's validation comes first (400 naming the field), the unknown ids after it (404)
    const api = await newWorkspace('examples');
    const refused: string[] = [];
    let sent = 0;
    for (const { key, op } of operations(doc)) {
      const [method, template] = key.split(' ');
      if (!['POST', 'PUT', 'PATCH'].includes(method)) continue;
      const example = op.requestBody?.content?.['application/json']?.example;
      if (example === undefined) continue;
      const url = template.replace(/\{[^}]+\}/g, () => randomUUID());
      const res = await api[method.toLowerCase() as 'post' | 'put' | 'patch'](url, example);
      if (res.status === 401 || res.status === 403) continue; // another scheme (operator endpoints)
      sent++;
      const fields = (res.body?.details ?? []) as { path: string; message: string }[];
      // a field refused by its own rules (format, type, pattern, unknown or missing field) is the
      // example's fault; a 400 for a reference to an id of this workspace (unknown here) is not
      const validation = fields.filter(
        (d) => !/not found|unknown .*(id|reference)|does not exist/i.test(d.message),
      );
      if (res.status === 400 && validation.length > 0) refused.push(`${key}: ${JSON.stringify(validation)}`);
    }
    assert.ok(sent >= 40, `${sent} request examples sent`);
    assert.deepEqual(refused, []);
  });

  test('the e-mail addresses of the examples can receive mail: an ekyc check of each finds no EMAIL_INVALID', async () => {
    const text = JSON.stringify(doc.paths);
    const emails = [
      ...new Set([...text.matchAll(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g)].map((m) => m[0])),
    ];
    assert.ok(emails.length >= 3, emails.join(', '));
    const api = await newWorkspace('example-emails');
    const created = await api.post('/v1/cases', {
      name: 'Example addresses',
      companies: [{ type: 'main', name: 'Example SAS', country: 'FR' }],
      individuals: emails.map((email, i) => ({
        first_name: 'Example',
        last_name: `Person ${i}`,
        email,
        birth_date: '1980-01-01',
        address: { country: 'FR' },
      })),
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const invalid: string[] = [];
    for (const person of created.body.individuals as { id: string; email: string }[]) {
      const check = await api.post('/v1/checks/ekyc', { individual_id: person.id });
      assert.equal(check.status, 201, JSON.stringify(check.body));
      const rules = check.body.data.fraud_signals.trust.triggered_rules as { code: string }[];
      if (rules.some((r) => r.code === 'EMAIL_INVALID')) invalid.push(person.email);
    }
    assert.deepEqual(invalid, [], 'the examples use addresses a user can copy (e.g. example.com)');
    // and the ekyc examples themselves show no refused address
    assert.doesNotMatch(text, /EMAIL_INVALID/);
  });
});
