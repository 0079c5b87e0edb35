/**
 * Writes src/http/openapi/examples.json: for each operation, a request body and a response captured
 * from this service itself, running a realistic scenario on a throw-away embedded database with the
 * sandbox providers and the workers running (checks are screened, analysed and decided as they would
 * be). The OpenAPI document shows them as the operations' examples, so they are real answers of the
 * current code, not hand-written guesses. Run it again after changing a schema:
 * `npm run openapi:examples` (the OpenAPI test checks every example against its schema, and that
 * every operation with a JSON body or a JSON success answer has one).
 *
 * Secrets in the answers (API keys, webhook signing secrets, temporary passwords, portal link
 * tokens) are replaced with placeholders of the same shape (`redact`): the throw-away database is
 * gone when the script ends, but a string that looks like a live key does not belong in a document.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { OPERATION_IDS } from '../src/http/openapi/operation-ids.ts';
import { makePdf, makePng, multipartBody } from '../test/helpers/files.ts';
import { passportPng, td3Mrz } from '../test/helpers/id-documents.ts';
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

/** `prefix` + the placeholder word repeated to `length` characters. */
const filler = (prefix: string, length: number, word = 'EXAMPLE') =>
  prefix + word.repeat(Math.ceil(length / word.length)).slice(0, Math.max(0, length - prefix.length));

/**
 * Secrets out of an example, each replaced by a placeholder of its shape: an API key keeps its
 * public prefix (`vk_` + 6 characters, what the key lists show), a webhook secret stays
 * `whsec_<base64>`, a portal token stays `vcp_...` wherever it appears (links, URLs), a password
 * becomes a placeholder of its length.
 */
function redact(value: unknown, key?: string): unknown {
  if (typeof value === 'string') {
    if (key === 'password') return filler('', value.length, 'example-password-');
    if (key === 'secret' && value.startsWith('whsec_'))
      return `whsec_${Buffer.from('example-webhook-signing-secret').toString('base64')}`;
    if (key === 'secret') return filler('', value.length, 'example-secret-');
    return value
      .replace(/\bvk_([A-Za-z0-9_-]{6})([A-Za-z0-9_-]{10,})/g, (_m, pre, rest) =>
        filler(`vk_${pre}`, 9 + rest.length),
      )
      .replace(/\bvcp_[A-Za-z0-9_-]{20,}/g, (m) => filler('vcp_', m.length));
  }
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  }
  return value;
}

const ADMIN_TOKEN = randomBytes(24).toString('base64url');
/** A request header that keeps a call out of the examples (polling while a check is processed). */
const UNRECORDED = 'x-openapi-examples-unrecorded';

const env = {
  VERICASE_RATE_LIMIT_PER_MINUTE: '0',
  // the operator endpoints (their token is never recorded: headers are not captured)
  VERICASE_ADMIN_TOKEN: ADMIN_TOKEN,
  // checks are processed as in production: screening, analysis, webhook deliveries
  VERICASE_RUN_WORKERS: 'true',
  // long enough for the scenario to push a check still processing to review (force_review)
  VERICASE_SANDBOX_DELAY_MS: '1500',
  // the legal-form list and the sanctions lists, when the shared reference data sits beside the checkout
  ...(fs.existsSync(SHARED_DATA) && !process.env.VERICASE_REFERENCE_DIR
    ? { VERICASE_REFERENCE_DIR: SHARED_DATA }
    : {}),
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

await withThrowawayApp(env, async (app, ctx) => {
  // the body as the client sent it, before validation fills in defaults
  const sent = new WeakMap<FastifyRequest, unknown>();
  app.addHook('preValidation', async (req) => {
    if (req.body && typeof req.body === 'object' && !Buffer.isBuffer(req.body))
      sent.set(req, structuredClone(req.body));
  });
  // per operation, the first 2xx answer and the first 4xx one, with the request that got each
  app.addHook('onSend', async (req, reply, payload) => {
    const route = req.routeOptions.url;
    if (!route || req.headers[UNRECORDED]) return payload;
    const id = OPERATION_IDS[`${req.method} ${route.replace(/:([A-Za-z_]+)/g, '{$1}')}`];
    if (!id) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    const body = sent.get(req);
    const captured: Captured = {
      ...(body !== undefined ? { request: body } : {}),
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
  async function send(
    method: string,
    url: string,
    opts: { body?: unknown; headers?: Record<string, string>; payload?: Buffer; asAdmin?: boolean } = {},
  ) {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: { ...(opts.asAdmin ? { authorization: `Bearer ${ADMIN_TOKEN}` } : headers), ...opts.headers },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
      ...(opts.payload ? { payload: opts.payload } : {}),
    });
    const json = res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : null;
    if (res.statusCode >= 400 && process.env.DEBUG) console.error(method, url, res.statusCode, json?.message);
    return json as Record<string, Loose>;
  }
  const call = (method: string, url: string, body?: unknown) => send(method, url, { body });
  const admin = (method: string, url: string, body?: unknown) => send(method, url, { body, asAdmin: true });
  /** A read that is not an example (polling). */
  const peek = (url: string) => send('GET', url, { headers: { [UNRECORDED]: '1' } });

  /**
   * Polls until `done` holds for the answer of `url` (60 s at most; then null, and the examples that
   * needed it are left out: the OpenAPI test names them).
   */
  async function until(url: string, done: (body: Record<string, Loose>) => boolean) {
    for (let i = 0; i < 300; i++) {
      const body = await peek(url);
      if (body && done(body)) return body;
      await sleep(200);
    }
    console.warn(`openapi-examples: ${url} still not as expected after 60 s`);
    return null;
  }
  const settled = (type: string, id: string) =>
    until(`/v1/checks/${type}/${id}`, (c) => c.status !== 'processing');

  async function upload(data: Buffer, filename: string, contentType: string): Promise<string> {
    const form = multipartBody([{ name: 'file', filename, data, contentType }]);
    const res = await send('POST', '/v1/files/upload', {
      payload: form.payload,
      headers: { 'content-type': form.contentType },
    });
    if (!res?.upload_ref) throw new Error(`upload of ${filename} failed: ${JSON.stringify(res)}`);
    return res.upload_ref;
  }
  async function portalCall(
    token: string,
    method: 'GET' | 'POST',
    url: string,
    form?: ReturnType<typeof multipartBody>,
  ) {
    const res = await app.inject({
      method,
      url: `/portal/api${url}`,
      headers: { authorization: `Bearer ${token}`, ...(form ? { 'content-type': form.contentType } : {}) },
      ...(form ? { payload: form.payload } : {}),
    });
    if (res.statusCode >= 300) throw new Error(`portal ${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  }

  const scenarioStart = new Date().toISOString();
  await call('GET', '/v1/ping');
  const created = await call('POST', '/v1/cases', {
    name: 'Maison Lumière onboarding',
    external_id: 'crm-20481',
    custom_properties: { customer_segment: 'corporate', expected_monthly_volume_eur: 250000 },
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
        email: 'claire.dubois@maison-lumiere.example.com',
        birth_date: '1981-04-17',
        is_business_contact: true,
        address: { country: 'FR', city: 'Lyon' },
        relations: [{ roles: ['legal_representative'], position: 'Présidente' }],
      },
      {
        ref: 'ubo',
        first_name: 'Marc',
        last_name: 'Lefèvre',
        email: 'marc.lefevre@lumiere-participations.example.com',
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
  const holding = detail.companies.find((c: Loose) => c.type !== 'main');
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
    to_company_id: holding.id,
    roles: ['shareholder'],
    ownership_percentage: 10,
  });
  if (rel?.id) await call('PATCH', `/v1/cases/${caseId}/relations/${rel.id}`, { ownership_percentage: 12 });
  if (rel?.id) await call('DELETE', `/v1/cases/${caseId}/relations/${rel.id}`);
  await call('POST', `/v1/individuals/${cfo.id}/set-relevant`, { is_relevant: false });
  await call('DELETE', `/v1/individuals/${cfo.id}`);
  await call('GET', '/v1/custom-properties/case');
  await call('GET', '/v1/custom-properties/case/customer_segment');

  // workspace settings: company monitoring on, before a company is linked to its registry record
  await call('GET', '/v1/workspace/settings');
  await call('PUT', '/v1/workspace/settings', { case_review: { comment_mandatory: false } });
  await call('PATCH', '/v1/workspace/settings', {
    checks: { aml: { fuzziness: 0.8, monitoring: true }, company_monitoring: { enabled: true } },
  });

  // webhooks first, so that the scenario's events are delivered (and logged)
  const hook = await call('POST', '/v1/webhooks', {
    name: 'Back office',
    url: 'https://backoffice.example/hooks/vericase',
    events: ['Case.Updated', 'Check.ReviewNeeded'],
  });

  // checks
  await call('POST', '/v1/checks/ekyc', { individual_id: ceo.id });
  const amlCeo = await call('POST', '/v1/checks/aml', {
    individual_id: ceo.id,
    settings: { fuzziness: 0.6 },
  });
  const ek = await call('GET', `/v1/checks?case_id=${caseId}&type=ekyc`);
  if (ek?.data?.[0]) {
    await settled('ekyc', ek.data[0].id);
    await call('GET', `/v1/checks/ekyc/${ek.data[0].id}`);
  }
  const inc = await call('POST', '/v1/checks/ekyc', { individual_id: ubo.id });
  const aml = await call('POST', '/v1/checks/aml', { individual_id: ubo.id });
  if (aml?.id) {
    await settled('aml', aml.id);
    await call('GET', `/v1/checks/aml/${aml.id}`);
    await call('PATCH', `/v1/checks/aml/${aml.id}/monitoring`, { is_monitored: true });
  }
  await call('POST', '/v1/checks/online_reputation', { company_id: main.id });
  await call('POST', '/v1/checks/fraud_database', { individual_id: ceo.id });
  if (inc?.id) {
    await settled('ekyc', inc.id);
    await call('PATCH', `/v1/checks/ekyc/${inc.id}/review`, {
      action: 'reject',
      override: true,
      comment: 'The address does not match the utility bill',
    });
  }

  // identity documents: Claire's passport (pushed to a reviewer while it is read), Marc's ID card
  // (the check waits for the images, then add_files submits them)
  const claireMrz = td3Mrz({
    lastName: 'DUBOIS',
    firstName: 'CLAIRE',
    number: '19FR48213',
    birth: '810417',
    sex: 'F',
    expiry: '340611',
  });
  const passport = await upload(
    passportPng({ mrz: claireMrz, width: 640, height: 448 }),
    'passport.png',
    'image/png',
  );
  const idd = await call('POST', '/v1/checks/id_document', {
    individual_id: ceo.id,
    data: { front_upload_ref: passport },
  });
  if (idd?.id) {
    // force_review takes no body but `{}` (the reviewer's comment goes with the review)
    await call('POST', `/v1/checks/id_document/${idd.id}/force_review`, {});
    await call('PATCH', `/v1/checks/id_document/${idd.id}/review`, {
      action: 'approve',
      comment: 'MRZ and photo page consistent with the individual',
    });
    await call('GET', `/v1/checks/id_document/${idd.id}`);
  }
  const marcMrz = td3Mrz({
    lastName: 'LEFEVRE',
    firstName: 'MARC',
    number: '17FR90455',
    birth: '700902',
    sex: 'M',
    expiry: '320228',
  });
  const waitingIdd = await call('POST', '/v1/checks/id_document', { individual_id: ubo.id });
  if (waitingIdd?.id) {
    const front = await upload(
      passportPng({ mrz: marcMrz, width: 640, height: 448 }),
      'passport-marc.png',
      'image/png',
    );
    await call('POST', `/v1/checks/id_document/${waitingIdd.id}/add_files`, { front_upload_ref: front });
    await settled('id_document', waitingIdd.id);
  }

  // company documents: the registration certificate (force_review, review), then the holding's
  // articles of association, sent after the check was opened
  const kbis = await upload(
    makePdf({
      text: [
        'Extrait Kbis',
        'Maison Lumiere SAS - RCS Lyon 552 100 554',
        'Forme juridique : societe par actions simplifiee',
        'Presidente : Claire Dubois',
      ],
    }),
    'kbis-maison-lumiere.pdf',
    'application/pdf',
  );
  const doc = await call('POST', '/v1/checks/document', {
    company_id: main.id,
    settings: { document_type_key: 'registration_certificate' },
    data: { files: [{ upload_ref: kbis }] },
  });
  if (doc?.id) {
    // force_review takes no body but `{}` (the reviewer's comment goes with the review)
    await call('POST', `/v1/checks/document/${doc.id}/force_review`, {});
    await call('PATCH', `/v1/checks/document/${doc.id}/review`, {
      action: 'approve',
      comment: 'Extract dated 12 days ago on the registry website',
    });
    await call('GET', `/v1/checks/document/${doc.id}`);
  }
  const articles = await call('POST', '/v1/checks/document', {
    company_id: holding.id,
    settings: { document_type_key: 'articles_of_association' },
  });
  if (articles?.id) {
    const pdf = await upload(
      makePdf({ text: ['Statuts', 'Lumiere Participations SAS', 'Capital social : 150 000 EUR'] }),
      'statuts-lumiere-participations.pdf',
      'application/pdf',
    );
    await call('POST', `/v1/checks/document/${articles.id}/add_files`, { files: [{ upload_ref: pdf }] });
  }

  // identity verification in the client portal: Marc photographs his passport and takes a selfie
  const idv = await call('POST', '/v1/checks/id_verification', {
    individual_id: ubo.id,
    settings: { redirect_url: 'https://maison-lumiere.example/onboarding/done' },
  });
  if (idv?.id) {
    const renewed = await call('POST', `/v1/checks/id_verification/${idv.id}/refresh_url`);
    const url = String((renewed ?? idv).data.vendor.verification_url);
    const token = new URL(url).hash.replace(/^#token=/, '');
    for (const [slot, file] of [
      ['front', passportPng({ mrz: marcMrz, width: 640, height: 448 })],
      ['face', makePng({ width: 400, height: 400, color: [190, 160, 140] })],
    ] as const) {
      await portalCall(
        token,
        'POST',
        `/actions/${idv.id}/files?slot=${slot}`,
        multipartBody([{ name: 'file', filename: `${slot}.png`, data: file, contentType: 'image/png' }]),
      );
    }
    await portalCall(token, 'POST', `/actions/${idv.id}/submit`);
    // force_review takes no body but `{}` (the reviewer's comment goes with the review)
    await call('POST', `/v1/checks/id_verification/${idv.id}/force_review`, {});
    await call('PATCH', `/v1/checks/id_verification/${idv.id}/review`, {
      action: 'approve',
      comment: 'Face matches the passport portrait',
    });
    await call('GET', `/v1/checks/id_verification/${idv.id}`);
  }

  await call('GET', '/v1/checks?status=need_review&limit=20');
  // notes, tags, risk, review
  const note = await call('POST', '/v1/notes', {
    case_id: caseId,
    content: '<p>Registry extract received; ownership chain confirmed.</p>',
  });
  if (note?.id) await call('POST', `/v1/notes/${note.id}/comments`, { content: 'Thanks, reviewed.' });
  await call('GET', `/v1/cases/${caseId}/notes`);
  const tag = await call('POST', '/v1/tags', { label: 'high-value' });
  await call('POST', '/v1/tags', { label: 'fast-track' });
  await call('GET', '/v1/tags');
  if (tag?.id) {
    await call('GET', `/v1/tags/${tag.id}`);
    await call('PATCH', `/v1/tags/${tag.id}`, { label: 'high value' });
    await call('POST', `/v1/cases/${caseId}/tags`, { tags: ['high value', 'fast-track'] });
    await call('DELETE', `/v1/cases/${caseId}/tags`, { tags: ['fast-track'] });
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

  // company data: a registry search, a company imported from its registry record (linked, so
  // monitored), its vendor data, a document ordered from the registry
  await call('GET', '/v1/company-data/countries');
  await call('GET', '/v1/company-data/entity-legal-forms?country=FR');
  const search = await call('GET', '/v1/company-data/search?country=FR&name=Lumiere');
  const ref = search?.data?.[0]?.search_ref;
  if (ref) await call('GET', `/v1/company-data/fetch/${encodeURIComponent(ref)}`);
  const supplierRef = (await call('GET', '/v1/company-data/search?country=FR&name=Globex'))?.data?.[0]
    ?.search_ref;
  const linked = supplierRef
    ? await call('POST', '/v1/companies', { case_id: caseId, type: 'affiliated', search_ref: supplierRef })
    : null;
  if (linked?.id) {
    await call('GET', `/v1/companies/${linked.id}/vendor-data`);
    const monitoring = (await peek(`/v1/companies/${linked.id}`))?.checks?.find(
      (c: Loose) => c.type === 'company_monitoring',
    );
    if (monitoring) await call('GET', `/v1/checks/company-monitoring/${monitoring.id}`);
    await call('POST', `/v1/companies/${linked.id}/set-relevant`, { is_relevant: false });
  }
  await call('GET', `/v1/company-data/available-documents?company_id=${main.id}`);
  const order = await call('POST', '/v1/company-data/document-orders', {
    company_id: main.id,
    product_ref: 'sandbox_registry_extract',
  });
  if (order?.id) {
    await until(
      `/v1/company-data/document-orders/${order.id}`,
      (o) => !['created', 'processing'].includes(o.status),
    );
    await call('GET', `/v1/company-data/document-orders/${order.id}`);
  }

  // document types and templates, fraud database, client portal
  const kbisType = await call('POST', '/v1/document_types', {
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
      '<h1>Account mandate</h1><p>{{case.name}} appoints {{signer.first_name}} {{signer.last_name}}.</p>',
  });
  await call('GET', '/v1/document-templates/mandate/versions/1');
  await call('POST', '/v1/document-templates/mandate/versions/1/publish', {});
  await call('GET', '/v1/document-templates');
  await call('GET', '/v1/document-templates/mandate');
  await call('POST', `/v1/cases/${caseId}/document-templates/mandate/render`, { individual_id: ceo.id });
  const esign = await call('POST', '/v1/checks/electronic_signature', {
    individual_id: ceo.id,
    settings: { document_template_key: 'mandate' },
  });
  if (esign?.id) {
    await call('GET', `/v1/checks/electronic_signature/${esign.id}`);
    await call('PATCH', `/v1/checks/electronic_signature/${esign.id}/review`, {
      action: 'reject',
      comment: 'Mandate superseded: a new version will be sent for signature',
    });
  }
  const portals = await call('GET', '/v1/client-portals');
  const portalId = portals?.data?.[0]?.id;
  if (portalId) {
    await call('GET', `/v1/client-portals/${portalId}`);
    await call('PATCH', `/v1/client-portals/${portalId}`, {
      name: 'Maison Lumière onboarding',
      default_language: 'fr',
      wait_steps: [
        { key: 'documents-review', title: 'We review your documents' },
        { key: 'final-approval', title: 'Final approval' },
      ],
    });
  }
  await call('POST', `/v1/cases/${caseId}/share-client-portal-link`, { business_contact_id: ceo.id });
  await call('POST', `/v1/cases/${caseId}/complete-client-portal-wait-step`, {
    wait_step_key: 'documents-review',
  });

  // a second case: a listed person, found by screening and by the shared fraud list
  // (the sanctions lists come from VERICASE_REFERENCE_DIR, ../shared/data beside the checkout)
  await until('/v1/screening/lists', (l) => Array.isArray(l.data) && l.data.length > 0);
  const flagged = await call('POST', '/v1/cases', {
    name: 'Blue Harbour Trading onboarding',
    companies: [{ type: 'main', name: 'Blue Harbour Trading Ltd', country: 'GB' }],
    individuals: [
      {
        first_name: 'Elvis',
        middle_name: 'Angus',
        last_name: 'Logan Morey',
        birth_date: '1963-07-28',
        nationalities: ['BZ'],
        relations: [{ roles: ['legal_representative'], position: 'Director' }],
      },
    ],
  });
  const listed = flagged?.individuals?.[0];
  let fraudReport: Record<string, Loose> | null = null;
  if (listed) {
    await call('GET', '/v1/screening/search?name=Elvis%20Logan%20Morey&type=person&birth_date=1963&limit=3');
    const screening = await call('POST', '/v1/checks/aml', { individual_id: listed.id });
    const screened = screening?.id ? await settled('aml', screening.id) : null;
    const hitIds = (screened?.data?.hits ?? []).map((h: Loose) => h.id);
    if (screened && hitIds.length) {
      await call('PATCH', `/v1/checks/aml/${screened.id}/hits/review`, {
        action: 'confirm',
        hit_ids: hitIds,
        comment: 'Same name, birth date and nationality as the OFAC SDN entry',
      });
      await call('PATCH', `/v1/checks/aml/${screened.id}/review`, {
        action: 'reject',
        comment: 'Sanctioned individual: onboarding refused, escalated to the MLRO',
      });
    }
    fraudReport = await call('POST', '/v1/fraud-database/reports', {
      individual_id: listed.id,
      reason: 'Chargebacks on three accounts opened with this identity',
    });
    await call('GET', '/v1/fraud-database/reports');
    if (fraudReport?.id) await call('GET', `/v1/fraud-database/reports/${fraudReport.id}`);
    const fraud = await call('POST', '/v1/checks/fraud_database', { individual_id: listed.id });
    if (fraud?.id) {
      await settled('fraud_database', fraud.id);
      await call('GET', `/v1/checks/fraud_database/${fraud.id}`);
      await call('PATCH', `/v1/checks/fraud_database/${fraud.id}/review`, {
        action: 'reject',
        comment: 'Reported by our fraud team for chargebacks',
      });
    }
  }
  const harbour = flagged?.companies?.[0];
  if (harbour) {
    const reputation = await call('POST', '/v1/checks/online_reputation', { company_id: harbour.id });
    if (reputation?.id) {
      await settled('online_reputation', reputation.id);
      await call('GET', `/v1/checks/online_reputation/${reputation.id}`);
      await call('PATCH', `/v1/checks/online_reputation/${reputation.id}/review`, {
        action: 'reject',
        override: true,
        comment: 'Its director is a sanctioned individual: reputation reassessed by hand',
      });
    }
  }

  // the main case's screenings are done by now
  if (amlCeo?.id) await settled('aml', amlCeo.id);
  await call('GET', '/v1/screening/lists');
  await call('GET', '/v1/case-counts');
  await call('GET', '/v1/review-queue/checks?limit=5');
  await call('GET', '/v1/review-queue/cases?limit=5');
  const key = await call('POST', '/v1/api-keys', { name: 'Back office sync' });
  await call('GET', '/v1/api-keys');
  if (key?.id) await call('DELETE', `/v1/api-keys/${key.id}`);
  const user = await call('POST', '/v1/users', {
    email: 'nadia.benali@bank.example.com',
    first_name: 'Nadia',
    last_name: 'Benali',
    role: 'reviewer',
  });
  await call('GET', '/v1/users');
  if (user?.id) {
    await call('GET', `/v1/users/${user.id}`);
    await call('PATCH', `/v1/users/${user.id}`, { role: 'viewer' });
    await call('DELETE', `/v1/users/${user.id}/sessions`);
  }
  await call('GET', '/v1/audit-log?limit=5');
  await call('POST', `/v1/cases/${caseId}/generate-report`, { timezone: 'Europe/Paris' });
  await call('POST', `/v1/cases/${caseId}/reviews`, { status: 'approved', comment: 'All checks cleared' });
  await call('POST', '/v1/cases', { name: 'Throw-away' }).then(
    (c) => c?.id && call('DELETE', `/v1/cases/${c.id}`),
  );

  // webhooks: the deliveries of the scenario's events (backoffice.example does not answer: they
  // fail and are retried), one retried by hand, the events replayed
  await call('GET', '/v1/webhooks');
  if (hook?.id) {
    await call('GET', `/v1/webhooks/${hook.id}`);
    await call('PATCH', `/v1/webhooks/${hook.id}`, { events: ['Case.*', 'Check.*'] });
    await call('POST', `/v1/webhooks/${hook.id}/rotate-secret`, { grace_period_seconds: 3600 });
    const logs = await until('/v1/webhook-logs?limit=5', (l) => l.data?.length > 0);
    await call('GET', '/v1/webhook-logs?limit=5');
    if (logs) await call('POST', `/v1/webhook-logs/${logs.data[0].id}/retry`);
    await call('POST', `/v1/webhooks/${hook.id}/replay`, { since: scenarioStart });
  }

  // operator endpoints (admin token)
  const bank = await admin('POST', '/admin/workspaces', { name: 'Example Credit Union' });
  const bankKey = bank?.id ? await admin('POST', `/admin/workspaces/${bank.id}/keys`) : null;
  await admin('POST', '/admin/screening/reload');
  await admin('POST', '/admin/company-monitoring/run', { workspace_id: ws.id, ignore_schedule: true });

  // the operations that answer no JSON, for the list of captured requests to be complete
  if (order?.id) {
    const done = await peek(`/v1/company-data/document-orders/${order.id}`);
    if (done?.file_id) await call('GET', `/v1/files/${done.file_id}`);
  }
  if (articles?.id) await call('DELETE', `/v1/checks/${articles.id}`);
  if (linked?.id) await call('DELETE', `/v1/companies/${linked.id}`);
  const fastTrack = (await peek('/v1/tags'))?.data?.find((t: Loose) => t.label === 'fast-track');
  if (fastTrack) await call('DELETE', `/v1/tags/${fastTrack.id}`);
  if (tpl?.id) await call('DELETE', `/v1/templates/${tpl.id}`);
  if (kbisType?.id) await call('DELETE', `/v1/document_types/${kbisType.id}`);
  if (fraudReport?.id) await call('DELETE', `/v1/fraud-database/reports/${fraudReport.id}`);
  if (hook?.id) await call('DELETE', `/v1/webhooks/${hook.id}`);
  if (bankKey?.id) await admin('DELETE', `/admin/keys/${bankKey.id}`);
});

const redacted = redact(examples) as typeof examples;
const sorted = Object.fromEntries(Object.entries(redacted).sort(([a], [b]) => a.localeCompare(b)));
fs.writeFileSync(OUT, `${JSON.stringify(sorted, null, 1)}\n`);
const ok = Object.values(examples).filter((e) => e.success).length;
const errors = Object.values(examples).filter((e) => e.error).length;
console.log(`openapi-examples: ${ok} operations with a 2xx example, ${errors} with a 4xx one → ${OUT}`);
const missing = Object.values(OPERATION_IDS).filter((id) => !examples[id]?.success);
if (missing.length)
  console.log(`no 2xx example (the OpenAPI test says which need one): ${missing.join(', ')}`);
