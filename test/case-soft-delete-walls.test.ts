import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { downloadFile, makePng, uploadRef } from './helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';
import { portal, portalCase, portalToken, portalUpload, portalUploadInFlight } from './helpers/portal.ts';
import { startReceiver } from './helpers/receiver.ts';
import { paramKinds, type RouteEntry, routeTable } from './helpers/route-table.ts';
import {
  buildTenantWorld,
  callAs,
  quiesce,
  type TenantWorld,
  worldIds,
  writeBodyFor,
} from './helpers/tenant-world.ts';

/**
 * A soft-deleted case (DELETE /v1/cases/{id} without permanent) serves nothing more through any
 * path: every route that takes an id of the case or of something under it answers 404 (as an
 * unknown id), its files included, no list shows it, and its portal links are refused as revoked.
 */

/** The kinds of path ids that belong to a case (test/helpers/route-table.ts names them). */
const CASE_OWNED = new Set([
  'case',
  'relation',
  'company',
  'individual',
  'check',
  'note',
  'file',
  'documentOrder',
]);

/** The deleted case's identifiers: none may show in an answer any more. */
function deletedTokens(w: TenantWorld): string[] {
  return [
    w.caseId,
    w.caseExternalId,
    ...w.companyIds,
    ...w.individualIds,
    w.relationId,
    ...Object.values(w.checks),
    w.awaitingIdDocumentId,
    w.noteId,
    w.commentId,
    w.fileId,
    w.documentOrderId,
    w.documentOrderFileId,
    w.caseReportFileId,
  ];
}

/** An error body without its timestamp: two answers alike but for the time they were given. */
const bare = (body: Record<string, unknown>) => ({ ...body, timestamp: undefined });

/**
 * The workspace's reads that take no id of the case: every GET list (with its largest page), and
 * every GET whose ids are the workspace's own (a tag, a template, a portal...). Not walked: the
 * history (audit log, activities, webhook logs), which a soft deletion keeps and a permanent one
 * erases (docs/files.md "Erasure with a case"); the fraud database, whose reports outlive the cases
 * they were made from; company data and screening, which read registries and sanctions lists.
 */
function workspaceReads(routes: RouteEntry[], doc: any, w: TenantWorld): string[] {
  const own: Record<string, string> = {
    tag: w.tagId,
    template: w.templateId,
    webhook: w.webhookId,
    clientPortal: w.clientPortalId,
    documentTemplate: w.documentTemplateKey,
    templateVersion: '1',
    documentType: w.documentTypeId,
    customPropertyEntity: 'case',
    customPropertyKey: w.customPropertyKey,
    user: w.userId,
  };
  const skipped = /^\/v1\/(audit-log|activities|webhook-logs|fraud-database|company-data|screening)(\/|$)/;
  const urls: string[] = [];
  for (const route of routes) {
    if (route.method !== 'GET' || !route.url.startsWith('/v1/') || skipped.test(route.url)) continue;
    const kinds = paramKinds(route);
    if (!kinds.every((k) => k && k in own)) continue;
    let i = 0;
    const url = route.url.replace(/:\w+/g, () => own[kinds[i++] as string]);
    const openapiPath = route.url.replace(/:(\w+)/g, '{$1}');
    const params: { name: string; schema?: { maximum?: number } }[] =
      doc.paths[openapiPath]?.get?.parameters ?? [];
    const limit = params.find((p) => p.name === 'limit');
    urls.push(limit ? `${url}?limit=${limit.schema?.maximum ?? 20}` : url);
  }
  return urls;
}

describe('a soft-deleted case serves nothing', { timeout: 300_000 }, () => {
  const receiverStarted = startReceiver();
  after(async () => (await receiverStarted).stop());

  test('every route with an id of the case or of what it holds: 404; no list shows it', {
    timeout: 240_000,
  }, async () => {
    const { app } = await getHarness();
    const receiver = await receiverStarted;
    const w = await buildTenantWorld('soft-deleted', receiver.url('/w'));
    await quiesce(w.workspaceId);
    const unknown = await callAs(w.api, 'GET', '/v1/files/00000000-0000-4000-8000-000000000000');
    assert.equal(unknown.status, 404);
    for (const id of [w.fileId, w.documentOrderFileId, w.caseReportFileId]) {
      assert.equal((await downloadFile(w.api, id)).status, 200, 'the fixture files are readable');
    }
    const tokens = deletedTokens(w);
    const routes = routeTable(app);
    const reads = workspaceReads(
      routes,
      (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json(),
      w,
    );
    // what the workspace's reads showed of the case before: the walk below must find none of it
    const shownBefore: string[] = [];
    for (const url of reads) {
      const res = await callAs(w.api, 'GET', url);
      if (tokens.some((t) => JSON.stringify(res.body).includes(t))) shownBefore.push(url.split('?')[0]);
    }
    for (const list of [
      '/v1/cases',
      '/v1/companies',
      '/v1/individuals',
      '/v1/checks',
      '/v1/review-queue/checks',
      '/v1/review-queue/cases',
    ]) {
      assert.ok(shownBefore.includes(list), `${list} showed the case before its deletion: ${shownBefore}`);
    }
    assert.equal((await w.api.delete(`/v1/cases/${w.caseId}`)).status, 204);

    const failures: string[] = [];
    const probe = async (expected: number[], method: string, url: string, body?: unknown) => {
      const res = await callAs(w.api, method, url, body);
      const sent = url + JSON.stringify(body ?? null);
      const shown = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
      const leaked = tokens.filter((t) => shown.includes(t) && !sent.includes(t));
      if (!expected.includes(res.status) || leaked.length) {
        failures.push(
          `${method} ${url} ${JSON.stringify(body ?? '')} → ${res.status}${leaked.length ? ` leaking ${leaked.join(', ')}` : ''} ${shown.slice(0, 200)}`,
        );
      }
      return res;
    };

    // 1. every route whose ids are all the case's or its contents', each id of the case
    let walked = 0;
    for (const route of routes) {
      if (!route.params.length || route.params.includes('*') || !route.url.startsWith('/v1/')) continue;
      const kinds = paramKinds(route);
      if (!kinds.every((k) => k && (CASE_OWNED.has(k) || k.startsWith('check:')))) continue;
      const values = kinds.map((k) => worldIds(w, k as string) as string[]);
      const rest = values.slice(1).map((v) => v[0]);
      const body = writeBodyFor(route, w);
      for (const first of values[0]) {
        let i = 0;
        const ids = [first, ...rest];
        await probe(
          [404],
          route.method,
          route.url.replace(/:\w+/g, () => ids[i++]),
          body,
        );
      }
      walked++;
    }
    assert.ok(walked >= 40, `${walked} routes walked`);

    // 2. a file of the case is refused like an unknown id, with the same body
    for (const id of [w.fileId, w.documentOrderFileId, w.caseReportFileId]) {
      const res = await callAs(w.api, 'GET', `/v1/files/${id}`);
      // the same answer as an unknown id's: nothing tells a withheld file from one that never was
      if (res.status !== 404 || JSON.stringify(bare(res.body)) !== JSON.stringify(bare(unknown.body)))
        failures.push(`GET /v1/files/${id} → ${res.status}, not an unknown id's 404`);
    }

    // 3. ids of the case inside bodies and filters find nothing
    await probe([404], 'POST', '/v1/notes', { case_id: w.caseId, content: 'x' });
    await probe([404], 'POST', '/v1/companies', { case_id: w.caseId, name: 'x', type: 'affiliated' });
    await probe([404], 'POST', '/v1/individuals', { case_id: w.caseId, first_name: 'x', last_name: 'y' });
    await probe([404], 'POST', '/v1/checks/ekyc', { individual_id: w.ceoId });
    await probe([404], 'POST', '/v1/checks/aml', { company_id: w.mainCompanyId });
    await probe([404], 'POST', '/v1/templates/run', { case_id: w.caseId, template_key: w.templateKey });
    await probe([404], 'POST', '/v1/company-data/document-orders', {
      company_id: w.mainCompanyId,
      product_ref: 'sandbox_registry_extract',
    });
    await probe([404], 'GET', `/v1/company-data/available-documents?company_id=${w.mainCompanyId}`);
    for (const q of [
      `/v1/checks?case_id=${w.caseId}`,
      `/v1/checks?company_id=${w.mainCompanyId}`,
      `/v1/checks?individual_id=${w.ceoId}`,
      `/v1/cases?external_id=${w.caseExternalId}`,
    ]) {
      const res = await probe([200], 'GET', q);
      if (res.body?.data?.length) failures.push(`GET ${q} → ${res.body.data.length} items`);
    }

    // 4. every read of the workspace (lists, and routes whose ids are the workspace's own: tags,
    // templates, portals...): nothing of the deleted case, though several showed it before
    for (const url of reads) {
      // a custom property exists while a live case carries its key: only the deleted case did
      await probe(url.includes(w.customPropertyKey) ? [404] : [200], 'GET', url);
    }
    assert.ok(reads.length >= 20, `${reads.length} reads walked`);

    assert.deepEqual(failures, [], `a soft-deleted case still answers:\n${failures.join('\n')}`);
    // the second, live case is untouched
    assert.equal((await w.api.get(`/v1/cases/${w.textCaseId}`)).status, 200);
  });

  test('a file a live case or a client portal still uses stays served; a withheld upload_ref is an unknown one', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const a = await portalCase(api, 'Deleted first');
    const b = await portalCase(api, 'Deleted later');
    const png = (n: number) => makePng({ width: 8 + n, height: 6, text: { sandbox_outcome: 'undecided' } });
    const [own, shared, logo] = [
      await uploadRef(api, png(1)),
      await uploadRef(api, png(2)),
      await uploadRef(api, png(3)),
    ];
    const documentCheck = async (companyId: string, refs: string[]) => {
      const res = await api.post('/v1/checks/document', {
        company_id: companyId,
        settings: { document_type_key: 'registration_certificate' },
        data: { files: refs.map((upload_ref) => ({ upload_ref })) },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const got = await api.get(`/v1/checks/document/${res.body.id}`);
      return got.body.data.document_file_ids as string[];
    };
    const [ownId, sharedId, logoId] = await documentCheck(a.companyId, [own, shared, logo]);
    assert.deepEqual(await documentCheck(b.companyId, [shared]), [sharedId]);
    const portals = await api.get('/v1/client-portals');
    const setLogo = await api.patch(`/v1/client-portals/${portals.body.data[0].id}`, {
      logo_upload_ref: logo,
    });
    assert.equal(setLogo.status, 200, JSON.stringify(setLogo.body));
    const unknown = await downloadFile(api, '00000000-0000-4000-8000-000000000000');
    for (const id of [ownId, sharedId, logoId]) assert.equal((await downloadFile(api, id)).status, 200);

    assert.equal((await api.delete(`/v1/cases/${a.caseId}`)).status, 204);
    const gone = await downloadFile(api, ownId);
    assert.equal(gone.status, 404, 'a file only the deleted case reached');
    assert.deepEqual(bare(JSON.parse(gone.body)), bare(JSON.parse(unknown.body)), 'as an unknown id');
    assert.equal((await downloadFile(api, sharedId)).status, 200, 'a check of a live case references it');
    assert.equal((await downloadFile(api, logoId)).status, 200, "a portal's logo");

    // the withheld upload's ref is refused in a new check as an unknown one, with the same body
    const refer = (ref: string) =>
      api.post('/v1/checks/id_document', { individual_id: b.contactId, data: { front_upload_ref: ref } });
    const withheld = await refer(own);
    const unresolvable = await refer('upl_never_issued_by_this_service_at_all');
    assert.equal(unresolvable.status, 400);
    assert.equal(withheld.status, 400, JSON.stringify(withheld.body));
    assert.deepEqual(bare(withheld.body), bare(unresolvable.body));
    assert.equal((await refer(shared)).status, 201, 'an upload a live case still uses can be referenced');

    // once no live case reaches it, the shared file is withheld too
    assert.equal((await api.delete(`/v1/cases/${b.caseId}`)).status, 204);
    assert.equal((await downloadFile(api, sharedId)).status, 404);
    assert.equal((await downloadFile(api, logoId)).status, 200);

    // erasing the soft-deleted cases still erases their files (the logo stays)
    const rows = () =>
      ctx.db
        .selectFrom('files')
        .select('id')
        .where('id', 'in', [ownId, sharedId, logoId])
        .orderBy('id')
        .execute();
    assert.equal((await rows()).length, 3, 'a withheld file is kept until the case is erased');
    assert.equal((await api.delete(`/v1/cases/${a.caseId}?permanent=true`)).status, 204);
    assert.deepEqual(
      (await rows()).map((r) => r.id).sort(),
      [sharedId, logoId].sort(),
      'the shared file stays while the other deleted case references it',
    );
    assert.equal((await api.delete(`/v1/cases/${b.caseId}?permanent=true`)).status, 204);
    assert.deepEqual(
      (await rows()).map((r) => r.id),
      [logoId],
    );
    assert.equal((await downloadFile(api, logoId)).status, 200);
  });

  test("the portal refuses the deleted case's links (case-wide and a signature's) as revoked; its signature document is withheld", async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const c = await portalCase(api, 'Portal of a deleted case');
    assert.equal(
      (
        await api.post('/v1/document-templates', {
          key: 'walls_sig',
          name: 'Engagement',
          kind: 'electronic_signature',
        })
      ).status,
      201,
    );
    assert.equal(
      (
        await api.post('/v1/document-templates/walls_sig/versions', {
          content: '<p>{{signer.full_name}}</p>',
        })
      ).status,
      201,
    );
    assert.equal((await api.post('/v1/document-templates/walls_sig/versions/1/publish')).status, 200);
    const check = await api.post('/v1/checks/electronic_signature', {
      individual_id: c.contactId,
      settings: { document_template_key: 'walls_sig' },
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    const { token } = await portalToken(api, c.caseId, c.contactId);
    const started = await portal(token, 'POST', `/actions/${check.body.id}/signature/start`);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const signed = await api.get(`/v1/checks/electronic_signature/${check.body.id}`);
    const signatureToken = new URL(signed.body.data.vendor.signature_link).hash.replace(/^#token=/, '');
    const request = await ctx.db
      .selectFrom('signature_requests')
      .select('document_file_id')
      .where('check_id', '=', check.body.id)
      .executeTakeFirstOrThrow();
    assert.equal((await downloadFile(api, request.document_file_id)).status, 200);
    const upload = await portalUpload(
      token,
      (await portalCheck(api, c.contactId)).id,
      'files',
      makePng({ width: 9, height: 9 }),
    );
    assert.equal(upload.status, 201, JSON.stringify(upload.body));
    for (const t of [token, signatureToken]) assert.equal((await portal(t, 'GET', '/session')).status, 200);

    // what a revoked link answers: the same for the deleted case's links
    const replaced = await portalToken(api, c.caseId, c.contactId);
    const revoked = await portal(token, 'GET', '/session');
    assert.equal(revoked.body.code, 'PORTAL_LINK_REVOKED');
    assert.equal((await api.delete(`/v1/cases/${c.caseId}`)).status, 204);
    for (const t of [replaced.token, signatureToken]) {
      for (const [method, url] of [
        ['GET', '/session'],
        ['GET', `/actions/${check.body.id}/signature/document`],
        ['GET', `/actions/${check.body.id}/signature/document.html`],
        ['POST', `/actions/${check.body.id}/signature/start`],
        ['GET', '/logo'],
      ] as const) {
        const res = await portal(t, method, url);
        assert.equal(res.status, 401, `${method} ${url}: ${JSON.stringify(res.body)}`);
        assert.deepEqual(bare(res.body), bare(revoked.body));
      }
    }
    assert.equal((await downloadFile(api, request.document_file_id)).status, 404);
  });
  test('a portal upload in flight when the case is deleted is refused as revoked and keeps nothing; so is every later write', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const c = await portalCase(api, 'Deleted during an upload');
    const check = (await portalCheck(api, c.contactId)).id;
    const { token } = await portalToken(api, c.caseId, c.contactId);
    // a file submitted before, and one left pending: both of the case, both walled with it
    const first = await portalUpload(token, check, 'files', makePng({ width: 9, height: 9 }));
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const submitted = await portal(token, 'POST', `/actions/${check}/submit`);
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    const other = (await portalCheck(api, c.contactId)).id;
    const pending = await portalUpload(token, other, 'files', makePng({ width: 8, height: 8 }));
    assert.equal(pending.status, 201, JSON.stringify(pending.body));
    const filesOf = () =>
      ctx.db
        .selectFrom('files')
        .select(['id', 'withheld_at'])
        .where('workspace_id', '=', api.workspaceId)
        .orderBy('id')
        .execute();
    const before = await filesOf();
    const attached = await ctx.db
      .selectFrom('files')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .where('attached_at', 'is not', null)
      .execute();
    assert.equal(attached.length, 1, 'the submitted file');
    assert.equal((await downloadFile(api, attached[0].id)).status, 200);

    let deleted: number | undefined;
    const inFlight = await portalUploadInFlight(
      token,
      other,
      'files',
      makePng({ width: 7, height: 7 }),
      async () => {
        deleted = (await api.delete(`/v1/cases/${c.caseId}`)).status;
      },
    );
    assert.equal(deleted, 204, 'the case was deleted while the upload was in flight');
    assert.equal(inFlight.status, 401, JSON.stringify(inFlight.body));
    assert.equal(inFlight.body.code, 'PORTAL_LINK_REVOKED');
    // nothing stored from it (its bytes discarded), no pending file recorded; the rest withheld
    const after = await filesOf();
    assert.deepEqual(
      after.map((f) => f.id),
      before.map((f) => f.id),
    );
    assert.ok(
      after.every((f) => f.withheld_at),
      JSON.stringify(after),
    );
    const pendingRows = await ctx.db
      .selectFrom('client_portal_pending_files')
      .select('file_id')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.deepEqual(
      pendingRows.map((p) => p.file_id),
      before.filter((f) => f.id !== attached[0].id).map((f) => f.id),
    );
    for (const f of after) assert.equal((await downloadFile(api, f.id)).status, 404, f.id);

    // every write arriving after the deletion: the link's refusal, the same answer as a read's
    const revoked = await portal(token, 'GET', '/session');
    assert.equal(revoked.body.code, 'PORTAL_LINK_REVOKED');
    const pendingFileId: string = pending.body.slots[0].files[0].id;
    const writes: [string, () => Promise<{ status: number; body: Record<string, unknown> }>][] = [
      ['upload', () => portalUpload(token, other, 'files', makePng({ width: 6, height: 6 }))],
      ['remove a pending file', () => portal(token, 'DELETE', `/actions/${other}/files/${pendingFileId}`)],
      ['submit', () => portal(token, 'POST', `/actions/${other}/submit`)],
      ['send a code', () => portal(token, 'POST', `/actions/${other}/signature/send-code`)],
      ['sign', () => portal(token, 'POST', `/actions/${other}/signature/sign`)],
      ['decline', () => portal(token, 'POST', `/actions/${other}/signature/decline`)],
    ];
    for (const [what, write] of writes) {
      const res = await write();
      assert.equal(res.status, 401, `${what}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(bare(res.body), bare(revoked.body), what);
    }
    assert.deepEqual(await filesOf(), after);
  });
  test("a registry document its order completes after the case's deletion is withheld too", async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const c = await portalCase(api, 'Ordered then deleted');
    const order = await api.post('/v1/company-data/document-orders', {
      company_id: c.companyId,
      product_ref: 'sandbox_registry_extract',
    });
    assert.equal(order.status, 201, JSON.stringify(order.body));
    // whether the order's job finishes before or after the deletion, its file is not served
    assert.equal((await api.delete(`/v1/cases/${c.caseId}`)).status, 204);
    const done = await eventually(() =>
      ctx.db
        .selectFrom('document_orders')
        .select(['status', 'file_id'])
        .where('id', '=', order.body.id)
        .where('status', 'in', ['completed', 'failed'])
        .executeTakeFirst(),
    );
    assert.equal(done.status, 'completed');
    assert.equal((await downloadFile(api, done.file_id as string)).status, 404);
  });
  test("an Idempotency-Key retry does not give the deleted case's stored answer again, nor make it again", async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const body = sampleCaseBody('idempotent-then-deleted');
    const key = { 'idempotency-key': 'create-once' };
    const created = await api.post('/v1/cases', body, key);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const note = await api.post(
      '/v1/notes',
      { case_id: created.body.id, content: 'a note' },
      { 'idempotency-key': 'note-once' },
    );
    assert.equal(note.status, 201, JSON.stringify(note.body));
    const replayed = await api.post('/v1/cases', body, key);
    assert.equal(replayed.status, 201);
    assert.equal(replayed.headers['idempotent-replayed'], 'true');
    assert.equal(replayed.body.id, created.body.id, 'replayed while the case is live');

    assert.equal((await api.delete(`/v1/cases/${created.body.id}`)).status, 204);
    const caseGone = await api.get(`/v1/cases/${created.body.id}`);
    for (const [url, sent, headers] of [
      ['/v1/cases', body, key],
      ['/v1/notes', { case_id: created.body.id, content: 'a note' }, { 'idempotency-key': 'note-once' }],
    ] as const) {
      const retry = await api.post(url, sent, headers);
      assert.equal(retry.status, 404, `${url}: ${JSON.stringify(retry.body)}`);
      assert.deepEqual(bare(retry.body), bare(caseGone.body));
    }
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0, 'the retry made no new case');

    // the erasure blanks the stored answers (the keys stay taken)
    assert.equal((await api.delete(`/v1/cases/${created.body.id}?permanent=true`)).status, 204);
    const stored = await ctx.db
      .selectFrom('idempotency_keys')
      .select(['key', 'response_body'])
      .where('workspace_id', '=', api.workspaceId)
      .orderBy('key')
      .execute();
    assert.deepEqual(stored, [
      { key: 'create-once', response_body: '' },
      { key: 'note-once', response_body: '' },
    ]);
    assert.equal((await api.post('/v1/cases', body, key)).status, 404);
  });
});

/** The contact's document check (created here), an action the portal lets the contact upload to. */
async function portalCheck(api: Client, individualId: string) {
  const res = await api.post('/v1/checks/document', {
    individual_id: individualId,
    settings: { document_type_key: 'proof_of_address' },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string };
}
