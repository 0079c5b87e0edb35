/**
 * Writes src/http/openapi/examples.json: for each operation, a request body and a response captured
 * from this service itself, running a realistic scenario on a throw-away embedded database with the
 * sandbox providers. The OpenAPI document shows them as the operations' examples, so they are real
 * answers of the current code, not hand-written guesses. Run it again after changing a schema:
 * `npm run openapi:examples` (the OpenAPI test checks every example against its schema).
 */
import fs from 'node:fs';
import path from 'node:path';
import { OPERATION_IDS } from '../src/http/openapi/operation-ids.ts';
import { withThrowawayApp } from './openapi-document.ts';

const SHARED_DATA = path.resolve(import.meta.dirname, '../../shared/data');
const OUT = path.resolve(import.meta.dirname, '../src/http/openapi/examples.json');

// biome-ignore lint/suspicious/noExplicitAny: the scenario reads the answers loosely; the document checks their shapes
type Loose = any;

type Captured = { request?: unknown; status: number; response?: unknown };

const { createWorkspace } = await import('../src/workspaces/repository.ts');

const examples: Record<string, { success?: Captured; error?: Captured }> = {};

/** Long lists cut to their first two items: an example shows the shape, not the whole list. */
function shorten(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(shorten);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
  }
  return value;
}

const env = {
  VERICASE_RATE_LIMIT_PER_MINUTE: '0',
  // the legal-form list, when the shared reference data sits beside the checkout
  ...(fs.existsSync(SHARED_DATA) && !process.env.VERICASE_REFERENCE_DIR
    ? { VERICASE_REFERENCE_DIR: SHARED_DATA }
    : {}),
};

await withThrowawayApp(env, async (app, ctx) => {
  // per operation, the first 2xx answer and the first 4xx one, with the request that got each
  app.addHook('onSend', async (req, reply, payload) => {
    const route = req.routeOptions.url;
    if (!route) return payload;
    const id = OPERATION_IDS[`${req.method} ${route.replace(/:([A-Za-z_]+)/g, '{$1}')}`];
    if (!id) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    const captured: Captured = {
      ...(req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body)
        ? { request: req.body }
        : {}),
      status: reply.statusCode,
      ...(type.startsWith('application/json') && typeof payload === 'string'
        ? { response: shorten(JSON.parse(payload)) }
        : {}),
    };
    const slot = reply.statusCode < 300 ? 'success' : reply.statusCode < 500 ? 'error' : null;
    if (slot) {
      examples[id] ??= {};
      examples[id][slot] ??= captured;
    }
    return payload;
  });
  await app.ready();

  const ws = await createWorkspace(ctx.db, 'Example Bank');
  const headers = { 'x-service-api-key': ws.api_key };
  async function call(method: string, url: string, body?: unknown) {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers,
      ...(body ? { payload: body } : {}),
    });
    const json = res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : null;
    if (res.statusCode >= 400 && process.env.DEBUG) console.error(method, url, res.statusCode, json?.message);
    return json as Record<string, Loose>;
  }

  await call('GET', '/v1/ping');
  const created = await call('POST', '/v1/cases', {
    name: 'Maison Lumière onboarding',
    external_id: 'crm-20481',
    companies: [
      {
        ref: 'main',
        type: 'main',
        name: 'Maison Lumière SAS',
        country: 'FR',
        registration_number: '552100554',
      },
      {
        ref: 'holding',
        type: 'affiliated',
        name: 'Lumière Participations',
        country: 'FR',
        relations: [{ roles: ['shareholder'], ownership_percentage: 80 }],
      },
    ],
    individuals: [
      {
        ref: 'ceo',
        first_name: 'Claire',
        last_name: 'Dubois',
        email: 'claire.dubois@maison-lumiere.example',
        birth_date: '1981-04-17',
        is_business_contact: true,
        address: { country: 'FR', city: 'Lyon' },
        relations: [{ roles: ['legal_representative'], position: 'Présidente' }],
      },
      {
        ref: 'ubo',
        first_name: 'Marc',
        last_name: 'Lefèvre',
        birth_date: '1970-09-02',
        is_beneficial_owner: true,
        address: { country: 'FR' },
        relations: [{ source_company_ref: 'holding', roles: ['shareholder'], ownership_percentage: 65 }],
      },
    ],
  });
  // a few refusals, for the error examples
  await call('POST', '/v1/cases', { companies: [] });
  await call('GET', '/v1/cases/7c1f0d6e-2b1a-4c55-9d3e-0f4a8b6c2e11');
  await call('PATCH', '/v1/cases/7c1f0d6e-2b1a-4c55-9d3e-0f4a8b6c2e11', { status: 'open' });
  await call('POST', '/v1/individuals', { case_id: '7c1f0d6e-2b1a-4c55-9d3e-0f4a8b6c2e11', first_name: 'A' });
  const caseId = created.id as string;
  const detail = await call('GET', `/v1/cases/${caseId}`);
  const main = detail.companies.find((c: Loose) => c.type === 'main');
  const ceo = detail.individuals.find((i: Loose) => i.first_name === 'Claire');
  const ubo = detail.individuals.find((i: Loose) => i.first_name === 'Marc');
  await call('GET', '/v1/cases?status=draft&sort=created_at.desc&limit=10');
  await call('PATCH', `/v1/cases/${caseId}`, { status: 'open', assignee_id: 'compliance-team' });
  await call('GET', `/v1/companies/${main.id}`);
  await call('PATCH', `/v1/companies/${main.id}`, { website_url: 'https://maison-lumiere.example' });
  await call('GET', '/v1/companies?limit=5');
  await call('GET', `/v1/individuals/${ceo.id}`);
  await call('PATCH', `/v1/individuals/${ceo.id}`, { phone_number: '+33612345678' });
  await call('GET', '/v1/individuals?limit=5');
  const cfo = await call('POST', '/v1/individuals', {
    case_id: caseId,
    first_name: 'Hugo',
    last_name: 'Martin',
    relations: [{ to_company_id: main.id, roles: ['legal_representative'], position: 'CFO' }],
  });
  const rel = await call('POST', `/v1/cases/${caseId}/relations`, {
    from_individual_id: cfo.id,
    to_company_id: detail.companies.find((c: Loose) => c.type !== 'main').id,
    roles: ['shareholder'],
    ownership_percentage: 10,
  });
  if (rel?.id) await call('PATCH', `/v1/cases/${caseId}/relations/${rel.id}`, { ownership_percentage: 12 });
  if (rel?.id) await call('DELETE', `/v1/cases/${caseId}/relations/${rel.id}`);
  await call('POST', `/v1/individuals/${cfo.id}/set-relevant`, { is_relevant: false });
  await call('DELETE', `/v1/individuals/${cfo.id}`);
  // checks
  await call('POST', '/v1/checks/ekyc', { individual_id: ceo.id });
  await call('POST', '/v1/checks/aml', { individual_id: ceo.id, settings: { fuzziness: 2 } });
  const ek = await call('GET', `/v1/checks?case_id=${caseId}&type=ekyc`);
  if (ek?.data?.[0]) await call('GET', `/v1/checks/ekyc/${ek.data[0].id}`);
  const inc = await call('POST', '/v1/checks/ekyc', { individual_id: ubo.id });
  const aml = await call('POST', '/v1/checks/aml', { individual_id: ubo.id });
  if (aml?.id) {
    await call('GET', `/v1/checks/aml/${aml.id}`);
    await call('PATCH', `/v1/checks/aml/${aml.id}/monitoring`, { is_monitored: true });
  }
  await call('POST', '/v1/checks/online_reputation', { company_id: main.id });
  await call('POST', '/v1/checks/fraud_database', { individual_id: ceo.id });
  if (inc?.id)
    await call('PATCH', `/v1/checks/ekyc/${inc.id}/review`, {
      action: 'reject',
      override: true,
      comment: 'The address does not match the utility bill',
    });
  await call('GET', '/v1/checks?status=need_review&limit=20');
  // notes, tags, risk, review
  const note = await call('POST', '/v1/notes', {
    case_id: caseId,
    content: '<p>Registry extract received; ownership chain confirmed.</p>',
  });
  if (note?.id) await call('POST', `/v1/notes/${note.id}/comments`, { content: 'Thanks, reviewed.' });
  await call('GET', `/v1/cases/${caseId}/notes`);
  const tag = await call('POST', '/v1/tags', { label: 'high-value' });
  await call('GET', '/v1/tags');
  if (tag?.id) {
    await call('GET', `/v1/tags/${tag.id}`);
    await call('PATCH', `/v1/tags/${tag.id}`, { label: 'high value' });
    await call('POST', `/v1/cases/${caseId}/tags`, { tags: ['high value'] });
    await call('GET', `/v1/cases/${caseId}/tags`);
  }
  await call('POST', `/v1/cases/${caseId}/risks`, { level: 'medium', comment: 'Cross-border ownership' });
  await call('GET', `/v1/cases/${caseId}/documents`);
  await call('GET', `/v1/activities?case_id=${caseId}&limit=5`);
  // templates
  const tpl = await call('POST', '/v1/templates', {
    name: 'Standard KYB',
    key: 'standard-kyb',
    checks: [
      { type: 'aml', targets: ['individuals', 'companies'] },
      { type: 'ekyc', targets: ['legal_representatives'] },
    ],
  });
  await call('GET', '/v1/templates');
  if (tpl?.id) {
    await call('GET', `/v1/templates/${tpl.id}`);
    await call('PATCH', `/v1/templates/${tpl.id}`, { name: 'Standard KYB (2026)' });
    await call('POST', '/v1/templates/run', { case_id: caseId, template_id: tpl.id });
  }
  // workspace
  await call('GET', '/v1/workspace/settings');
  await call('PATCH', '/v1/workspace/settings', { checks: { aml: { fuzziness: 0.8, monitoring: true } } });
  await call('GET', '/v1/users');
  await call('GET', '/v1/custom-properties/case');
  // webhooks
  const hook = await call('POST', '/v1/webhooks', {
    name: 'Back office',
    url: 'https://backoffice.example/hooks/vericase',
    events: ['Case.Updated', 'Check.ReviewNeeded'],
  });
  await call('GET', '/v1/webhooks');
  if (hook?.id) {
    await call('GET', `/v1/webhooks/${hook.id}`);
    await call('PATCH', `/v1/webhooks/${hook.id}`, { events: ['Case.*', 'Check.*'] });
    await call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, {});
  }
  await call('GET', '/v1/webhook-logs?limit=5');
  // company data
  await call('GET', '/v1/company-data/countries');
  await call('GET', '/v1/company-data/entity-legal-forms?country=FR');
  const search = await call('GET', '/v1/company-data/search?country=FR&name=Lumiere');
  const ref = search?.data?.[0]?.search_ref;
  if (ref) {
    await call('GET', `/v1/company-data/fetch/${encodeURIComponent(ref)}`);
  }
  await call('GET', `/v1/company-data/available-documents?company_id=${main.id}`);
  // document types and templates, fraud database, client portal
  await call('POST', '/v1/document_types', {
    key: 'kbis',
    label: 'Kbis extract',
    target_entities: ['company'],
  });
  await call('GET', '/v1/document_types');
  await call('POST', '/v1/document-templates', {
    key: 'mandate',
    name: 'Account mandate',
    kind: 'electronic_signature',
  });
  await call('POST', '/v1/document-templates/mandate/versions', {
    content:
      '<h1>Account mandate</h1><p>{{case.name}} appoints {{individual.first_name}} {{individual.last_name}}.</p>',
  });
  await call('GET', '/v1/document-templates/mandate/versions/1');
  await call('POST', '/v1/document-templates/mandate/versions/1/publish', {});
  await call('GET', '/v1/document-templates');
  await call('GET', '/v1/document-templates/mandate');
  await call('POST', '/v1/fraud-database/reports', {
    individual_id: ubo.id,
    reason: 'Chargebacks on three accounts opened with this identity',
  });
  await call('GET', '/v1/fraud-database/reports');
  const portals = await call('GET', '/v1/client-portals');
  const portalId = portals?.data?.[0]?.id;
  if (portalId) {
    await call('GET', `/v1/client-portals/${portalId}`);
    await call('PATCH', `/v1/client-portals/${portalId}`, {
      name: 'Maison Lumière onboarding',
      default_language: 'fr',
    });
  }
  await call('POST', `/v1/cases/${caseId}/share-client-portal-link`, { business_contact_id: ceo.id });
  await call('GET', '/v1/screening/lists');
  await call('GET', '/v1/case-counts');
  await call('GET', '/v1/review-queue/checks?limit=5');
  await call('GET', '/v1/review-queue/cases?limit=5');
  const key = await call('POST', '/v1/api-keys', { name: 'Back office sync' });
  await call('GET', '/v1/api-keys');
  if (key?.id) await call('DELETE', `/v1/api-keys/${key.id}`);
  const user = await call('POST', '/v1/users', {
    email: 'nadia.benali@example-bank.example',
    first_name: 'Nadia',
    last_name: 'Benali',
    role: 'reviewer',
  });
  if (user?.id) {
    await call('PATCH', `/v1/users/${user.id}`, { role: 'viewer' });
    await call('DELETE', `/v1/users/${user.id}/sessions`);
  }
  await call('GET', '/v1/audit-log?limit=5');
  await call('POST', `/v1/cases/${caseId}/reviews`, { status: 'approved', comment: 'All checks cleared' });
  await call('POST', '/v1/cases', { name: 'Throw-away' }).then(
    (c) => c?.id && call('DELETE', `/v1/cases/${c.id}`),
  );
});

const sorted = Object.fromEntries(Object.entries(examples).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(OUT, `${JSON.stringify(sorted, null, 1)}\n`);
const ok = Object.values(examples).filter((e) => e.success).length;
const errors = Object.values(examples).filter((e) => e.error).length;
console.log(`openapi-examples: ${ok} operations with a 2xx example, ${errors} with a 4xx one → ${OUT}`);
