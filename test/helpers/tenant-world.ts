import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { makePng, uploadRef } from './files.ts';
import { type Client, eventually, getHarness, newWorkspace, type Res, sampleCaseBody } from './harness.ts';
import type { RouteEntry } from './route-table.ts';

/**
 * A workspace holding one of everything the API can address by id, for the tenant-isolation
 * walk: the walk sends another workspace's key with these ids and expects 404 everywhere.
 */
export interface TenantWorld {
  api: Client;
  workspaceId: string;
  apiKeyId: string;
  /** The main case; its external_id is uuid-shaped so even uuid-only routes must look it up. */
  caseId: string;
  caseExternalId: string;
  /** A second case with a free-text external_id; it also carries the review and the risk. */
  textCaseId: string;
  textExternalId: string;
  mainCompanyId: string;
  companyIds: string[];
  ceoId: string;
  individualIds: string[];
  relationId: string;
  /** One check per type, keyed by type (company_monitoring inserted directly: no create endpoint). */
  checks: Record<string, string>;
  /** An id_document check still waiting for its files (in_progress), so add_files is allowed. */
  awaitingIdDocumentId: string;
  noteId: string;
  commentId: string;
  tagId: string;
  tagLabel: string;
  templateId: string;
  templateKey: string;
  webhookId: string;
  webhookSecret: string;
  webhookLogId: string;
  eventIds: string[];
  fileId: string;
  /** An upload no check references yet. */
  uploadRef: string;
  /** A console user (inserted: users have no create endpoint yet). */
  userId: string;
  /** A custom property key carried by the main case (definitions are derived from the keys in use). */
  customPropertyKey: string;
  /** A completed document order of the main company, and the file it produced. */
  documentOrderId: string;
  documentOrderFileId: string;
  /** A company-data search_ref of this workspace (already fetched once, so it is known to work). */
  searchRef: string;
  /** A custom document type of the workspace. */
  documentTypeId: string;
  /** The file of a generated report of the main case. */
  caseReportFileId: string;
  /** The workspace's fraud-list report of its CEO (the workspace does not share). */
  fraudReportId: string;
  /** The workspace's default client portal, through which a link of the main case was shared. */
  clientPortalId: string;
  /** A document template of the workspace (its key unique to this world), version 1 published. */
  documentTemplateKey: string;
}

function must<T = any>(res: Res<T>, status: number, what: string): T {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Builds the world; `hookUrl` must answer 2xx so deliveries settle (a failing one keeps retrying). */
export async function buildTenantWorld(label: string, hookUrl: string): Promise<TenantWorld> {
  const { ctx } = await getHarness();
  const api = await newWorkspace(label);
  const tag = `${label}-${api.workspaceId.slice(0, 8)}`;

  // first, so every later event of the workspace is delivered to it
  const webhook = must(
    await api.post('/v1/webhooks', { name: `${tag} hook`, url: hookUrl, events: ['*'] }),
    201,
    'webhook',
  );
  const caseExternalId = randomUUID();
  const kase = must(
    await api.post('/v1/cases', {
      ...sampleCaseBody(caseExternalId),
      name: `${tag} case`,
      custom_properties: { [`cp_${label.replace(/\W/g, '_')}`]: `${tag} value` },
    }),
    201,
    'case',
  );
  const textExternalId = `${tag}-external`;
  const textCase = must(
    await api.post('/v1/cases', { name: `${tag} second case`, external_id: textExternalId }),
    201,
    'second case',
  );
  const main = kase.companies.find((x: any) => x.type === 'main');
  const ceo = kase.individuals.find((x: any) => x.last_name === 'Lovelace');
  const note = must(await api.post('/v1/notes', { case_id: kase.id, content: `${tag} note` }), 201, 'note');
  const comment = must(
    await api.post(`/v1/notes/${note.id}/comments`, { content: `${tag} comment` }),
    201,
    'comment',
  );
  const tagRow = must(await api.post('/v1/tags', { label: `${tag}-tag` }), 201, 'tag');
  must(await api.post(`/v1/cases/${kase.id}/tags`, { tags: [tagRow.id] }), 201, 'case tag');
  const template = must(
    await api.post('/v1/templates', {
      key: `${tag}-template`,
      name: `${tag} template`,
      checks: [{ type: 'ekyc', targets: ['individuals'] }],
    }),
    201,
    'template',
  );
  must(await api.post(`/v1/cases/${textCase.id}/risks`, { level: 'low' }), 201, 'risk');
  must(await api.post(`/v1/cases/${textCase.id}/reviews`, { status: 'approved' }), 201, 'review');

  const front = await uploadRef(api, makePng({ width: 40, height: 30 }));
  // an electronic_signature check needs a template of its kind with a published version
  must(
    await api.post('/v1/document-templates', {
      key: 'tenant_signature',
      name: `${tag} signature`,
      kind: 'electronic_signature',
    }),
    201,
    'document template',
  );
  must(
    await api.post('/v1/document-templates/tenant_signature/versions', {
      content: `<p>${tag}: {{company.name}} signed by {{signer.full_name}}</p>`,
    }),
    201,
    'document template version',
  );
  must(await api.post('/v1/document-templates/tenant_signature/versions/1/publish'), 200, 'publish');
  // keyed after the world, so another world's key names nothing in this one
  const documentTemplateKey = `tpl_${label.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
  must(
    await api.post('/v1/document-templates', {
      key: documentTemplateKey,
      name: `${tag} template`,
      kind: 'report',
    }),
    201,
    'world document template',
  );
  must(
    await api.post(`/v1/document-templates/${documentTemplateKey}/versions`, {
      content: `<p>${tag} {{case.name}}</p>`,
    }),
    201,
    'world document template version',
  );
  must(await api.post(`/v1/document-templates/${documentTemplateKey}/versions/1/publish`), 200, 'publish');
  const checks: Record<string, string> = {
    ekyc: must(await api.post('/v1/checks/ekyc', { individual_id: ceo.id }), 201, 'ekyc').id,
    aml: must(await api.post('/v1/checks/aml', { company_id: main.id }), 201, 'aml').id,
    online_reputation: must(
      await api.post('/v1/checks/online_reputation', { company_id: main.id }),
      201,
      'online_reputation',
    ).id,
    id_document: must(
      await api.post('/v1/checks/id_document', { individual_id: ceo.id, data: { front_upload_ref: front } }),
      201,
      'id_document',
    ).id,
    company_monitoring: await insertMonitoringCheck(api.workspaceId, kase.id, main.id),
    id_verification: must(
      await api.post('/v1/checks/id_verification', { individual_id: ceo.id }),
      201,
      'id_verification',
    ).id,
    fraud_database: must(
      await api.post('/v1/checks/fraud_database', { individual_id: ceo.id }),
      201,
      'fraud_database',
    ).id,
    document: must(
      await api.post('/v1/checks/document', {
        company_id: main.id,
        settings: { document_type_key: 'registration_certificate' },
        data: {
          files: [
            {
              upload_ref: await uploadRef(
                api,
                makePng({ width: 8, height: 6, text: { sandbox_outcome: 'undecided' } }),
              ),
            },
          ],
        },
      }),
      201,
      'document',
    ).id,
    electronic_signature: must(
      await api.post('/v1/checks/electronic_signature', {
        individual_id: ceo.id,
        settings: { document_template_key: 'tenant_signature' },
      }),
      201,
      'electronic_signature',
    ).id,
  };
  const awaiting = must(
    await api.post('/v1/checks/id_document', { individual_id: ceo.id }),
    201,
    'awaiting id_document',
  );
  const unattachedRef = await uploadRef(api, makePng({ width: 12, height: 10 }));

  const fileId: string = await eventually(async () => {
    const got = (await api.get(`/v1/checks/id_document/${checks.id_document}`)).body;
    return got.data?.information?.front_file_id;
  });
  const log = await eventually(async () =>
    (await api.get('/v1/webhook-logs?limit=50')).body.data?.find((l: any) => l.status === 'delivered'),
  );
  const keys = await ctx.db
    .selectFrom('api_keys')
    .select('id')
    .where('workspace_id', '=', api.workspaceId)
    .execute();
  const user = await ctx.db
    .insertInto('users')
    .values({
      id: randomUUID(),
      workspace_id: api.workspaceId,
      first_name: tag,
      last_name: 'User',
      email: `${tag}@example.com`,
      role: 'admin',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const found = must(
    await api.get(`/v1/company-data/search?country=FR&name=${encodeURIComponent(`${tag} registry`)}`),
    200,
    'company-data search',
  );
  const searchRef: string = found.data[0].search_ref;
  must(await api.get(`/v1/company-data/fetch/${searchRef}`), 200, 'company-data fetch');
  const documentOrder = must(
    await api.post('/v1/company-data/document-orders', {
      company_id: main.id,
      product_ref: 'sandbox_registry_extract',
    }),
    201,
    'document order',
  );
  const documentOrderFileId: string = await eventually(
    async () => (await api.get(`/v1/company-data/document-orders/${documentOrder.id}`)).body.file_id,
  );
  const documentType = must(
    await api.post('/v1/document_types', {
      key: `dt_${label.replace(/\W/g, '_')}`,
      label: `${tag} document type`,
      target_entities: ['company', 'individual'],
    }),
    201,
    'document type',
  );
  must(await api.post(`/v1/cases/${kase.id}/generate-report`, { timezone: 'UTC' }), 204, 'case report');
  const caseReportFileId: string = await eventually(
    async () => (await api.get(`/v1/cases/${kase.id}/documents?type=case_report`)).body.data[0]?.file_ids[0],
  );
  const fraudReport = must(
    await api.post('/v1/fraud-database/reports', { individual_id: ceo.id, reason: `${tag} fraud reason` }),
    201,
    'fraud report',
  );
  const portal = must(await api.get('/v1/client-portals'), 200, 'client portals').data[0];
  must(
    await api.post(`/v1/cases/${kase.id}/share-client-portal-link`, { business_contact_id: ceo.id }),
    201,
    'client portal link',
  );
  const events = await sql<{
    id: string;
  }>`select id from events where workspace_id = ${api.workspaceId}`.execute(ctx.db);
  return {
    api,
    workspaceId: api.workspaceId,
    apiKeyId: keys[0].id,
    caseId: kase.id,
    caseExternalId,
    textCaseId: textCase.id,
    textExternalId,
    mainCompanyId: main.id,
    companyIds: kase.companies.map((c: any) => c.id),
    ceoId: ceo.id,
    individualIds: kase.individuals.map((i: any) => i.id),
    relationId: ceo.relations[0].id,
    checks,
    awaitingIdDocumentId: awaiting.id,
    noteId: note.id,
    commentId: comment.id,
    tagId: tagRow.id,
    tagLabel: tagRow.label,
    templateId: template.id,
    templateKey: template.key,
    webhookId: webhook.id,
    webhookSecret: webhook.secret,
    webhookLogId: log.id,
    eventIds: events.rows.map((e) => e.id),
    fileId,
    uploadRef: unattachedRef,
    userId: user.id,
    customPropertyKey: `cp_${label.replace(/\W/g, '_')}`,
    documentOrderId: documentOrder.id,
    documentOrderFileId,
    searchRef,
    documentTypeId: documentType.id,
    caseReportFileId,
    fraudReportId: fraudReport.id,
    clientPortalId: portal.id,
    documentTemplateKey,
  };
}

/**
 * Waits until the workspace's background work is over: no check waiting for its provider job, no
 * document order unfinished, every event dispatched, every delivery finished. Until then its rows
 * change on their own.
 */
export async function quiesce(workspaceId: string, timeoutMs = 60_000): Promise<void> {
  const { ctx } = await getHarness();
  await eventually(async () => {
    const busy = await sql<{ n: number }>`
      select (select count(*) from checks where workspace_id = ${workspaceId} and status = 'processing')
        + (select count(*) from document_orders
           where workspace_id = ${workspaceId} and status not in ('completed', 'failed'))
        + (select count(*) from case_reports where workspace_id = ${workspaceId} and status = 'requested')
        + (select count(*) from event_outbox where workspace_id = ${workspaceId})
        + (select count(*) from webhook_deliveries
           where workspace_id = ${workspaceId} and status not in ('delivered', 'failed')) as n
    `.execute(ctx.db);
    return Number(busy.rows[0].n) === 0;
  }, timeoutMs);
}

/**
 * company_monitoring checks have no create endpoint (the spec makes them read-only over the API),
 * so the fixture writes the row the engine would hold: an approved check on the main company.
 */
async function insertMonitoringCheck(workspaceId: string, caseId: string, companyId: string) {
  const { ctx } = await getHarness();
  const id = randomUUID();
  await ctx.db
    .insertInto('checks')
    .values({
      id,
      workspace_id: workspaceId,
      case_id: caseId,
      company_id: companyId,
      individual_id: null,
      type: 'company_monitoring',
      status: 'approved',
      subtype: null,
      is_internal: false,
      // the data a first monitoring run leaves (src/checks/types/company_monitoring/schemas.ts)
      data: JSON.stringify({
        result: 'approved',
        settings: { alert_categories: ['company_status', 'operational_changes'] },
        vendor: { name: 'sandbox', is_monitored: true },
        review: { comment: null, reviewed_at: null, reviewer_type: 'system', user: null },
        registry: { country: 'FR', vendor_ref: 'fixture' },
        changes: null,
      }),
      internal: JSON.stringify({}),
      history: JSON.stringify([]),
      template_id: null,
      expires_at: null,
    })
    .execute();
  return id;
}

/** Every identifier and secret of a world: none may appear in an answer to another workspace. */
export function worldTokens(w: TenantWorld): string[] {
  return [
    w.workspaceId,
    w.apiKeyId,
    w.api.key,
    w.caseId,
    w.caseExternalId,
    w.textCaseId,
    w.textExternalId,
    ...w.companyIds,
    ...w.individualIds,
    w.relationId,
    ...Object.values(w.checks),
    w.awaitingIdDocumentId,
    w.noteId,
    w.commentId,
    w.tagId,
    w.tagLabel,
    w.templateId,
    w.templateKey,
    w.webhookId,
    w.webhookSecret,
    w.webhookLogId,
    ...w.eventIds,
    w.fileId,
    w.uploadRef,
    w.userId,
    w.customPropertyKey,
    w.documentOrderId,
    w.documentOrderFileId,
    w.searchRef,
    w.documentTypeId,
    w.fraudReportId,
  ];
}

/**
 * A valid body for a route (strict schemas: documented fields only), ids taken from `w`: a walk's
 * 404 or refusal is then about the id it sends, not about the body (tenant isolation, soft deletion).
 */
export function writeBodyFor(route: RouteEntry, w: TenantWorld): unknown {
  const key = `${route.method} ${route.url}`;
  if (/^PATCH \/v1\/checks\/[^/]+\/:id\/review$/.test(key)) return { action: 'approve' };
  const bodies: Record<string, unknown> = {
    'PATCH /v1/cases/:id': { name: 'renamed by a walk' },
    'PATCH /v1/companies/:id': { name: 'x' },
    'POST /v1/companies/:id/set-relevant': { is_relevant: false },
    'PATCH /v1/individuals/:id': { first_name: 'x' },
    'POST /v1/individuals/:id/set-relevant': { is_relevant: false },
    'POST /v1/cases/:caseId/relations': { from_individual_id: w.individualIds[2], roles: ['shareholder'] },
    'PATCH /v1/cases/:caseId/relations/:caseRelationId': { position: 'x' },
    'PATCH /v1/checks/aml/:id/hits/review': { action: 'confirm', hit_ids: ['h1'] },
    'PATCH /v1/checks/aml/:id/monitoring': { is_monitored: true },
    'POST /v1/checks/id_document/:id/add_files': { front_upload_ref: w.uploadRef },
    'POST /v1/checks/document/:id/add_files': { files: [{ upload_ref: w.uploadRef }] },
    'POST /v1/notes/:id/comments': { content: 'x' },
    'PATCH /v1/tags/:id': { label: 'renamed-by-a-walk' },
    'POST /v1/cases/:id/tags': { tags: [w.tagId] },
    'DELETE /v1/cases/:id/tags': { tags: [w.tagId] },
    'POST /v1/cases/:id/reviews': { status: 'approved' },
    'POST /v1/cases/:id/risks': { level: 'high' },
    'PATCH /v1/templates/:id': { name: 'x' },
    'PATCH /v1/webhooks/:id': { name: 'x' },
    'POST /v1/webhooks/:id/replay': { since: '2020-01-01T00:00:00Z' },
    'PATCH /v1/client-portals/:id': { name: 'renamed by a walk', status: 'offline' },
    'POST /v1/cases/:id/share-client-portal-link': { business_contact_id: w.ceoId },
    'POST /v1/document-templates/:key/versions': { content: '<p>written by a walk</p>' },
  };
  if (key in bodies) return bodies[key];
  return route.method === 'POST' || route.method === 'PATCH' || route.method === 'PUT' ? {} : undefined;
}

/** The ids of kind `kind` in a world (several where the route must refuse each of them). */
export function worldIds(w: TenantWorld, kind: string): string[] | undefined {
  if (kind.startsWith('check:')) {
    const id = w.checks[kind.slice(6)];
    return id ? [id] : undefined;
  }
  const ids: Record<string, string[]> = {
    case: [w.caseId, w.caseExternalId],
    relation: [w.relationId],
    company: w.companyIds,
    individual: w.individualIds,
    check: [...Object.values(w.checks), w.awaitingIdDocumentId],
    note: [w.noteId],
    tag: [w.tagId],
    template: [w.templateId],
    webhook: [w.webhookId],
    webhookLog: [w.webhookLogId],
    file: [w.fileId, w.documentOrderFileId, w.caseReportFileId],
    workspace: [w.workspaceId],
    apiKey: [w.apiKeyId],
    user: [w.userId],
    customPropertyEntity: ['case'],
    customPropertyKey: [w.customPropertyKey],
    documentOrder: [w.documentOrderId],
    documentType: [w.documentTypeId],
    searchRef: [w.searchRef],
    fraudReport: [w.fraudReportId],
    clientPortal: [w.clientPortalId],
    documentTemplate: [w.documentTemplateKey],
    templateVersion: ['1'],
  };
  return ids[kind];
}

/** A request to the app in process, as `api`'s key; a JSON answer parsed. */
export async function callAs(api: Client, method: string, url: string, body?: unknown): Promise<Res> {
  const { app } = await getHarness();
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: { 'x-service-api-key': api.key },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  const json = String(res.headers['content-type'] ?? '').includes('json') && res.body;
  return { status: res.statusCode, body: json ? JSON.parse(res.body) : res.body, headers: res.headers };
}
