import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { processDocumentOrder } from '../src/company-data/document-orders/process-document-order.ts';
import { DOCUMENT_ORDER_RETRIES } from '../src/company-data/document-orders/queues.ts';
import type { Config } from '../src/config.ts';
import { getStorage } from '../src/files/storage.ts';
import { FAKE_CH_KEY, type FakeRegistry, startFakeRegistry } from './helpers/fake-registries.ts';
import { FAKE_PDF } from './helpers/fake-registry-payloads.ts';
import { downloadFile } from './helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';
import { pdfLines, pdfPlainText } from './helpers/pdf-words.ts';
import { type Receiver, startReceiver } from './helpers/receiver.ts';

/**
 * Document orders through the HTTP API, on the sandbox registry (every country): what can be
 * ordered, the order's life (created → processing → completed with a PDF, or failed), its events
 * through webhooks, and where completed orders show (case documents, the company's document_orders).
 */

const NUMBER = '552100554';
// a typed company's record is found by its registration number: the sandbox names it after it
const SANDBOX_NAME = `Sandbox Company ${NUMBER}`;

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => receiver.stop());

async function caseWithCompany(api: Client, company: Record<string, unknown> = {}) {
  const res = await api.post('/v1/cases', {
    name: 'Orders case',
    companies: [{ type: 'main', name: SANDBOX_NAME, country: 'FR', registration_number: NUMBER, ...company }],
    individuals: [
      { first_name: 'Ada', last_name: 'Lovelace', relations: [{ roles: ['legal_representative'] }] },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return {
    caseId: res.body.id as string,
    companyId: res.body.companies[0].id as string,
    individualId: res.body.individuals[0].id as string,
  };
}

async function settledOrder(api: Client, id: string) {
  return eventually(async () => {
    const res = await api.get(`/v1/company-data/document-orders/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.status === 'completed' || res.body.status === 'failed') && res.body;
  });
}

async function order(api: Client, companyId: string, productRef: string) {
  const res = await api.post('/v1/company-data/document-orders', {
    company_id: companyId,
    product_ref: productRef,
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

function assert400(res: { status: number; body: any }, field: string, message?: RegExp) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.ok(
    res.body.details?.some((d: any) => d.path === field),
    `400 names ${field}: ${JSON.stringify(res.body)}`,
  );
  if (message) assert.match(res.body.message, message);
}

async function filesOf(workspaceId: string) {
  const { ctx } = await getHarness();
  return ctx.db.selectFrom('files').select(['id']).where('workspace_id', '=', workspaceId).execute();
}

async function eventsOf(workspaceId: string, prefix = 'DocumentOrder.') {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .where('type', 'like', `${prefix}%`)
    .orderBy('seq')
    .execute();
  return rows.map((r) => ({
    type: r.type,
    payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as any,
  }));
}

describe('available documents', () => {
  test('by company_id and by country + registration_number: the sandbox list, vendor sandbox', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithCompany(api);
    const byCompany = await api.get(`/v1/company-data/available-documents?company_id=${companyId}`);
    assert.equal(byCompany.status, 200, JSON.stringify(byCompany.body));
    assert.ok(byCompany.body.data.length >= 1);
    for (const d of byCompany.body.data) {
      assert.equal(d.vendor, 'sandbox');
      assert.match(d.price_tier, /^tier_\d$/);
      assert.ok(['instant', 'delayed'].includes(d.delivery));
      assert.deepEqual(Object.keys(d).sort(), [
        'delivery',
        'delivery_time',
        'name',
        'price_tier',
        'product_ref',
        'sample_url',
        'vendor',
      ]);
    }
    assert.ok(byCompany.body.data.some((d: any) => d.product_ref === 'sandbox_registry_extract'));
    const byRecord = await api.get(
      `/v1/company-data/available-documents?country=FR&registration_number=${NUMBER}`,
    );
    assert.equal(byRecord.status, 200, JSON.stringify(byRecord.body));
    assert.deepEqual(byRecord.body, byCompany.body);
  });

  test('400: nothing given, a half record, both ways at once, no registration number, a country nobody serves', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithCompany(api);
    const url = '/v1/company-data/available-documents';
    assert400(await api.get(url), 'company_id');
    assert400(await api.get(`${url}?country=FR`), 'registration_number');
    assert400(await api.get(`${url}?registration_number=${NUMBER}`), 'country');
    assert400(await api.get(`${url}?company_id=${companyId}&country=FR&registration_number=1`), 'country');
    assert400(await api.get(`${url}?company_id=${companyId}&registration_number=1`), 'registration_number');
    assert400(await api.get(`${url}?country=FRA&registration_number=1`), 'country');
    assert400(await api.get(`${url}?company_id=not-a-uuid`), 'company_id');

    const { companyId: bare } = await caseWithCompany(api, { registration_number: null });
    assert400(await api.get(`${url}?company_id=${bare}`), 'company_id', /registration number/);
    assert400(
      await api.post('/v1/company-data/document-orders', {
        company_id: bare,
        product_ref: 'sandbox_registry_extract',
      }),
      'company_id',
      /registration number/,
    );
    const { companyId: stateless } = await caseWithCompany(api, { country: null });
    assert400(await api.get(`${url}?company_id=${stateless}`), 'company_id', /country/);

    const { ctx } = await getHarness();
    ctx.config.companyData.providers.AQ = 'none';
    try {
      assert400(await api.get(`${url}?country=AQ&registration_number=1`), 'country', /No company registry/);
      const { companyId: antarctic } = await caseWithCompany(api, { country: 'AQ' });
      assert400(await api.get(`${url}?company_id=${antarctic}`), 'company_id', /AQ/);
      assert400(
        await api.post('/v1/company-data/document-orders', {
          company_id: antarctic,
          product_ref: 'sandbox_registry_extract',
        }),
        'company_id',
      );
    } finally {
      delete ctx.config.companyData.providers.AQ;
    }
  });

  test('a registry error is its status, never a 500', async () => {
    const api = await newWorkspace();
    // a sandbox record reference that names no record: the registry does not know the company
    const res = await api.get(
      '/v1/company-data/available-documents?country=FR&registration_number=sbx_nothing',
    );
    assert.equal(res.status, 404, JSON.stringify(res.body));
    assert.match(res.body.message, /company registry \(sandbox\)/);
  });

  test("another workspace's company, or no company: 404", async () => {
    const mine = await newWorkspace();
    const theirs = await newWorkspace();
    const { companyId } = await caseWithCompany(theirs);
    const url = '/v1/company-data/available-documents';
    assert.equal((await mine.get(`${url}?company_id=${companyId}`)).status, 404);
    assert.equal((await mine.get(`${url}?company_id=00000000-0000-4000-8000-000000000000`)).status, 404);
    const res = await mine.post('/v1/company-data/document-orders', {
      company_id: companyId,
      product_ref: 'sandbox_registry_extract',
    });
    assert.equal(res.status, 404);
    // the body's field is named, as for every other id a body refers to
    assert.deepEqual(
      res.body.details.map((d: { path: string }) => d.path),
      ['company_id'],
    );
    const listed = await mine.get(`${url}?company_id=${companyId}`);
    assert.equal(listed.body.details[0].path, 'company_id');
    assert.equal((await theirs.get(`${url}?company_id=${companyId}`)).status, 200);
  });
});

describe('document orders', () => {
  test('an order completes with a downloadable PDF of the company, walled to its workspace', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithCompany(api);
    const created = await order(api, companyId, 'sandbox_registry_extract');
    assert.equal(created.status, 'created');
    assert.equal(created.company_id, companyId);
    assert.equal(created.product_ref, 'sandbox_registry_extract');
    assert.equal(created.name, 'Registry extract');
    assert.equal(created.price_tier, 'tier_1');
    assert.equal(created.file_id, null);
    assert.equal(created.failure_reason, null);

    const done = await settledOrder(api, created.id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.equal(typeof done.file_id, 'string');
    assert.equal(done.failure_reason, null);
    assert.ok(done.updated_at >= created.updated_at);

    const file = await downloadFile(api, done.file_id);
    assert.equal(file.status, 200);
    assert.equal(file.bytes.subarray(0, 4).toString('latin1'), '%PDF');
    const pdf = await PDFDocument.load(file.bytes);
    assert.match(pdf.getTitle() ?? '', new RegExp(SANDBOX_NAME));
    if (hasPdftotext()) assert.match(pdfText(file.bytes), new RegExp(SANDBOX_NAME));

    const other = await newWorkspace();
    assert.equal((await downloadFile(other, done.file_id)).status, 404);
    assert.equal((await other.get(`/v1/company-data/document-orders/${created.id}`)).status, 404);
  });

  test('the extract prints a name in Cyrillic as written and CJK transliterated, marked (they were `?`)', async () => {
    const api = await newWorkspace();
    const found = await api.get(
      `/v1/company-data/search?country=BG&name=${encodeURIComponent('Ковалёв 東京')}`,
    );
    assert.equal(found.status, 200, JSON.stringify(found.body));
    const created = await api.post('/v1/cases', {
      name: 'Cyrillic extract',
      companies: [{ type: 'main', search_ref: found.body.data[0].search_ref }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const company = created.body.companies[0];
    assert.equal(company.name, 'Ковалёв 東京');
    const done = await settledOrder(api, (await order(api, company.id, 'sandbox_registry_extract')).id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const file = await downloadFile(api, done.file_id);
    const pdf = await PDFDocument.load(file.bytes);
    assert.equal(pdf.getTitle(), 'Registry extract: Ковалёв 東京');
    if (hasPdftotext()) {
      const text = pdfText(file.bytes);
      assert.match(text, /Company name: Ковалёв ‹Dong Jing›/);
      assert.match(text, /transliterated from a script this document cannot show/);
      // the Bulgarian legal form as the ISO 20275 list writes it
      if (company.legal_form && /[\u0400-\u04ff]/.test(company.legal_form))
        assert.ok(text.includes(company.legal_form), text);
      assert.doesNotMatch(text, /\?{3}/);
    }
  });

  test('the extract draws Arabic and Hebrew right to left, labels and numbers in place (they were drawn mirrored)', async () => {
    for (const [country, name] of [
      ['SA', 'أرامكو'],
      ['IL', 'חברה'],
    ]) {
      const api = await newWorkspace();
      const found = await api.get(
        `/v1/company-data/search?country=${country}&name=${encodeURIComponent(name)}`,
      );
      assert.equal(found.status, 200, JSON.stringify(found.body));
      const created = await api.post('/v1/cases', {
        name: 'Right-to-left extract',
        companies: [{ type: 'main', search_ref: found.body.data[0].search_ref, import_related: true }],
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const company = created.body.companies.find((c: any) => c.type === 'main');
      assert.equal(company.name, name);
      const done = await settledOrder(api, (await order(api, company.id, 'sandbox_registry_extract')).id);
      assert.equal(done.status, 'completed', JSON.stringify(done));
      const pdf = (await downloadFile(api, done.file_id)).bytes;
      // pdftotext gives a right-to-left word back in typing order only when its letters were drawn
      // right to left (`Company name: وكمارأ` before, the letters left to right as typed)
      const text = pdfPlainText(pdf);
      assert.match(text, new RegExp(`^Company name: ${name}$`, 'm'), text);
      // the holding `<name> Holding` begins right to left, so it is laid out so (Holding at its
      // left), kept apart from its percentage: `% 04 :gnidloH <name>` before
      assert.match(text, new RegExp(`^Holding ${name}: 40 %$`, 'm'), text);
      const line = pdfLines(pdf).find((words) => words.includes('Holding'));
      assert.deepEqual(line?.slice(0, 1), ['Holding'], JSON.stringify(line));
      assert.deepEqual(line?.slice(-2), ['40', '%'], JSON.stringify(line));
      // the legal form as the ISO 20275 list writes it, in Arabic for Saudi Arabia (its words were
      // drawn in typing order, left to right: each came back backwards)
      // (its words; the list's double spaces are one space in pdftotext's reading)
      const form = String(company.legal_form ?? '').replace(/\s+/g, ' ');
      if (form) assert.match(text, new RegExp(`^Legal form: .*${form}`, 'm'), text);
      if (country === 'SA') assert.match(company.legal_form ?? '', /[\u0600-\u06ff]/);
    }
  });

  test('product_ref not offered for the company: 400 naming product_ref; a sandbox `fail` product fails', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithCompany(api);
    assert400(
      await api.post('/v1/company-data/document-orders', { company_id: companyId, product_ref: 'nope' }),
      'product_ref',
    );
    assert400(await api.post('/v1/company-data/document-orders', { company_id: companyId }), 'product_ref');
    const failing = await order(api, companyId, 'sandbox_extract_fail');
    assert.equal(failing.status, 'created');
    const done = await settledOrder(api, failing.id);
    assert.equal(done.status, 'failed');
    assert.equal(done.file_id, null);
    assert.match(done.failure_reason, /fail/);
    assert.equal((await filesOf(api.workspaceId)).length, 0);
  });

  test('DocumentOrder.Completed and DocumentOrder.Failed, in order, through webhooks in the reference shape', async () => {
    const api = await newWorkspace();
    const hook = await api.post('/v1/webhooks', {
      name: 'orders',
      url: receiver.url(`/orders-${api.workspaceId}`),
      events: ['DocumentOrder.*'],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const { companyId } = await caseWithCompany(api);
    const ok = await settledOrder(api, (await order(api, companyId, 'sandbox_registry_extract')).id);
    const ko = await settledOrder(api, (await order(api, companyId, 'sandbox_fail')).id);

    const events = await eventsOf(api.workspaceId);
    assert.deepEqual(
      events.map((e) => e.type),
      ['DocumentOrder.Completed', 'DocumentOrder.Failed'],
    );
    assert.deepEqual(events[0].payload, { document_order: ok });
    assert.deepEqual(events[1].payload, { document_order: ko });

    const path = `/orders-${api.workspaceId}`;
    await receiver.waitFor(() => receiver.deliveries(path).length >= 2);
    const bodies = receiver
      .deliveries(path)
      .map((r) => r.json)
      .sort((a, b) => (a.event < b.event ? -1 : 1));
    assert.deepEqual(
      bodies.map((b) => b.event),
      ['DocumentOrder.Completed', 'DocumentOrder.Failed'],
    );
    for (const [i, b] of bodies.entries()) {
      assert.deepEqual(Object.keys(b).sort(), ['context', 'document_order', 'event']);
      assert.deepEqual(b.document_order, [ok, ko][i]);
      assert.deepEqual(Object.keys(b.context).sort(), [
        'event_id',
        'remaining_retry_count',
        'retry_count',
        'timestamp',
        'workspace',
      ]);
      assert.equal(b.context.workspace.id, api.workspaceId);
    }
    // the deliveries are the company's: the webhook logs find them by company
    const logs = await eventually(async () => {
      const res = await api.get(`/v1/webhook-logs?company_id=${companyId}`);
      return res.body.data?.length === 2 && res.body.data;
    });
    assert.deepEqual(logs.map((l: any) => l.event).sort(), [
      'DocumentOrder.Completed',
      'DocumentOrder.Failed',
    ]);
  });

  test('completed orders: case documents (type document_order) and the company document_orders', async () => {
    const api = await newWorkspace();
    const { caseId, individualId } = await caseWithCompany(api);
    // ordered for an affiliated company: only those can be marked not relevant (below)
    const affiliated = await api.post('/v1/companies', {
      case_id: caseId,
      type: 'affiliated',
      name: SANDBOX_NAME,
      country: 'FR',
      registration_number: NUMBER,
      relations: [{ roles: ['shareholder'] }],
    });
    assert.equal(affiliated.status, 201, JSON.stringify(affiliated.body));
    const companyId = affiliated.body.id as string;
    const ok = await settledOrder(api, (await order(api, companyId, 'sandbox_registry_extract')).id);
    const ko = await settledOrder(api, (await order(api, companyId, 'sandbox_fail')).id);

    const docs = await api.get(`/v1/cases/${caseId}/documents?type=document_order`);
    assert.equal(docs.status, 200, JSON.stringify(docs.body));
    assert.deepEqual(docs.body.data, [
      {
        company_id: companyId,
        name: 'Registry extract',
        type: 'document_order',
        document_order: { id: ok.id },
        file_ids: [ok.file_id],
        updated_at: ok.updated_at,
      },
    ]);
    const all = await api.get(`/v1/cases/${caseId}/documents`);
    assert.deepEqual(
      all.body.data.filter((d: any) => d.type === 'document_order'),
      docs.body.data,
    );
    const onlyChecks = await api.get(`/v1/cases/${caseId}/documents?type=check__document`);
    assert.deepEqual(onlyChecks.body.data, []);
    const forCompany = await api.get(
      `/v1/cases/${caseId}/documents?type=document_order&company_id=${companyId}`,
    );
    assert.equal(forCompany.body.data.length, 1);
    const forPerson = await api.get(`/v1/cases/${caseId}/documents?individual_id=${individualId}`);
    assert.deepEqual(forPerson.body.data, []);
    const notRelevant = await api.post(`/v1/companies/${companyId}/set-relevant`, { is_relevant: false });
    assert.equal(notRelevant.status, 200, JSON.stringify(notRelevant.body));
    assert.deepEqual((await api.get(`/v1/cases/${caseId}/documents?type=document_order`)).body.data, []);
    const withNotRelevant = await api.get(
      `/v1/cases/${caseId}/documents?type=document_order&include_not_relevant=true`,
    );
    assert.equal(withNotRelevant.body.data.length, 1);

    const company = await api.get(`/v1/companies/${companyId}`);
    assert.equal(company.status, 200);
    assert.deepEqual(company.body.document_orders, [ok, ko]);
    const kase = await api.get(`/v1/cases/${caseId}?include_not_relevant=true`);
    assert.equal(kase.status, 200);
    assert.deepEqual(kase.body.companies.find((c: any) => c.id === companyId).document_orders, [ok, ko]);
  });

  test('the job run again, or twice at once, leaves one file and one event', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithCompany(api);
    const { ctx } = await getHarness();
    const created = await order(api, companyId, 'sandbox_registry_extract');
    // the queued job runs too: three runs race
    await Promise.all([
      processDocumentOrder(ctx, { orderId: created.id }, { retryCount: 0 }),
      processDocumentOrder(ctx, { orderId: created.id }, { retryCount: 0 }),
    ]);
    const done = await settledOrder(api, created.id);
    assert.equal(done.status, 'completed');
    await processDocumentOrder(ctx, { orderId: created.id }, { retryCount: 1 });
    assert.deepEqual(await filesOf(api.workspaceId), [{ id: done.file_id }]);
    assert.deepEqual(
      (await eventsOf(api.workspaceId)).map((e) => e.type),
      ['DocumentOrder.Completed'],
    );
    const again = (await api.get(`/v1/company-data/document-orders/${created.id}`)).body;
    assert.deepEqual(again, done);
    // the stored bytes are the recorded file's: no other file is left in the workspace's storage
    assert.equal((await downloadFile(api, done.file_id)).status, 200);
  });

  test('a company created from a search_ref orders from the record it is linked to', async () => {
    const api = await newWorkspace();
    const found = await api.get('/v1/company-data/search?country=FR&name=Linked%20Orders');
    assert.equal(found.status, 200, JSON.stringify(found.body));
    const candidate = found.body.data[0];
    const res = await api.post('/v1/cases', {
      name: 'Linked case',
      companies: [{ type: 'main', search_ref: candidate.search_ref }],
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const company = res.body.companies[0];
    assert.equal(company.name, candidate.name);
    // the typed identifiers no longer matter: the link names the record
    const patched = await api.patch(`/v1/companies/${company.id}`, { registration_number: null });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const docs = await api.get(`/v1/company-data/available-documents?company_id=${company.id}`);
    assert.equal(docs.status, 200, JSON.stringify(docs.body));
    const done = await settledOrder(api, (await order(api, company.id, 'sandbox_registry_extract')).id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const pdf = await PDFDocument.load((await downloadFile(api, done.file_id)).bytes);
    assert.equal(pdf.getTitle(), `Registry extract: ${candidate.name}`);
  });

  test('a registry that stays unavailable: the job is retried, then the order fails saying so', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithCompany(api);
    const { ctx } = await getHarness();
    const saved = { delay: ctx.config.sandboxDelayMs, ...ctx.config.companyData };
    // the sandbox takes longer to deliver than the call may last: its answer is "unavailable"
    Object.assign(ctx.config, { sandboxDelayMs: 60_000 });
    Object.assign(ctx.config.companyData, { timeoutMs: 0, retries: 0 });
    try {
      const created = await order(api, companyId, 'sandbox_registry_extract');
      await assert.rejects(
        processDocumentOrder(ctx, { orderId: created.id }, { retryCount: 0 }),
        /registry unavailable/,
      );
      const between = (await api.get(`/v1/company-data/document-orders/${created.id}`)).body;
      assert.equal(between.status, 'processing');
      assert.equal(between.failure_reason, null);
      // the queue's last retry
      await processDocumentOrder(ctx, { orderId: created.id }, { retryCount: DOCUMENT_ORDER_RETRIES });
      const done = (await api.get(`/v1/company-data/document-orders/${created.id}`)).body;
      assert.equal(done.status, 'failed');
      assert.equal(done.file_id, null);
      assert.match(done.failure_reason, /sandbox\) stayed unavailable after 6 attempts/);
      assert.deepEqual(
        (await eventsOf(api.workspaceId)).map((e) => [e.type, e.payload.document_order.status]),
        [['DocumentOrder.Failed', 'failed']],
      );
    } finally {
      Object.assign(ctx.config, { sandboxDelayMs: saved.delay });
      Object.assign(ctx.config.companyData, { timeoutMs: saved.timeoutMs, retries: saved.retries });
    }
  });

  test('storage failing on the last run: the order fails instead of staying processing', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithCompany(api);
    const { ctx } = await getHarness();
    const storage = getStorage(ctx);
    ctx.storage = {
      kind: storage.kind,
      put: async () => {
        throw new Error('disk full');
      },
      get: (key) => storage.get(key),
      delete: (key) => storage.delete(key),
    };
    try {
      const created = await order(api, companyId, 'sandbox_registry_extract');
      await assert.rejects(
        processDocumentOrder(ctx, { orderId: created.id }, { retryCount: DOCUMENT_ORDER_RETRIES }),
        /disk full/,
      );
      const done = (await api.get(`/v1/company-data/document-orders/${created.id}`)).body;
      assert.equal(done.status, 'failed');
      assert.match(done.failure_reason, /could not be stored/);
      assert.doesNotMatch(done.failure_reason, /disk full/, 'no internal detail');
    } finally {
      ctx.storage = storage;
    }
  });

  test('deleting the company deletes its orders', async () => {
    const api = await newWorkspace();
    const res = await api.post('/v1/cases', {
      name: 'two companies',
      companies: [
        { type: 'main', name: 'Main', country: 'FR', registration_number: '1' },
        { type: 'affiliated', name: SANDBOX_NAME, country: 'FR', registration_number: NUMBER },
      ],
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const affiliated = res.body.companies.find((c: any) => c.type === 'affiliated').id;
    const done = await settledOrder(api, (await order(api, affiliated, 'sandbox_registry_extract')).id);
    assert.equal((await api.delete(`/v1/companies/${affiliated}`)).status, 204);
    assert.equal((await api.get(`/v1/company-data/document-orders/${done.id}`)).status, 404);
    assert.deepEqual((await api.get(`/v1/cases/${res.body.id}/documents?type=document_order`)).body.data, []);
  });
});

function hasPdftotext(): boolean {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function pdfText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'order-pdf-'));
  const file = path.join(dir, 'order.pdf');
  fs.writeFileSync(file, bytes);
  try {
    return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('document orders on a real registry adapter (Companies House, local fake)', () => {
  let fake: FakeRegistry;
  let saved: Config['companyData'];
  before(async () => {
    fake = await startFakeRegistry('companies_house');
    const { ctx } = await getHarness();
    saved = ctx.config.companyData;
    // the harness's own configuration: the order's job runs in the harness's workers
    ctx.config.companyData = {
      ...saved,
      providers: { ...saved.providers, GB: 'companies_house' },
      companiesHouse: { baseUrl: fake.baseUrl, apiKey: FAKE_CH_KEY },
      timeoutMs: 500,
      retries: 1,
    };
  });
  after(async () => {
    const { ctx } = await getHarness();
    ctx.config.companyData = saved;
    await fake.stop();
  });

  test("the company's filings are its documents; an order downloads the filing's PDF", async () => {
    fake.mode = 'ok';
    const api = await newWorkspace();
    const { companyId, caseId } = await caseWithCompany(api, {
      name: 'ACME LIMITED',
      country: 'GB',
      registration_number: '01234567',
    });
    const docs = await api.get(`/v1/company-data/available-documents?company_id=${companyId}`);
    assert.equal(docs.status, 200, JSON.stringify(docs.body));
    assert.deepEqual(
      docs.body.data.map((d: any) => [d.product_ref, d.vendor, d.price_tier]),
      [
        ['filing:MzQyMDAwMDAwMQ', 'companies_house', 'tier_0'],
        ['filing:MzQxOTk5OTk5OQ', 'companies_house', 'tier_0'],
      ],
    );
    const created = await order(api, companyId, 'filing:MzQyMDAwMDAwMQ');
    assert.equal(created.name, 'Confirmation statement (CS01) filed 2024-05-10');
    const done = await settledOrder(api, created.id);
    assert.equal(done.status, 'completed', JSON.stringify(done));
    const file = await downloadFile(api, done.file_id);
    assert.equal(file.status, 200);
    assert.deepEqual(file.bytes, FAKE_PDF);
    const listed = await api.get(`/v1/cases/${caseId}/documents?type=document_order`);
    assert.deepEqual(
      listed.body.data.map((d: any) => [d.name, d.file_ids]),
      [['Confirmation statement (CS01) filed 2024-05-10', [done.file_id]]],
    );
  });

  test('a registry down is a 503, a broken answer a 502, and no order is recorded', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithCompany(api, { country: 'GB', registration_number: '01234567' });
    const url = `/v1/company-data/available-documents?country=GB&registration_number=01234567`;
    try {
      fake.mode = 'fail';
      const down = await api.get(url);
      assert.equal(down.status, 503, JSON.stringify(down.body));
      assert.match(down.body.message, /companies_house/);
      const refused = await api.post('/v1/company-data/document-orders', {
        company_id: companyId,
        product_ref: 'filing:MzQyMDAwMDAwMQ',
      });
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      fake.mode = 'malformed';
      assert.equal((await api.get(url)).status, 502);
      const company = await api.get(`/v1/companies/${companyId}`);
      assert.deepEqual(company.body.document_orders, []);
    } finally {
      fake.mode = 'ok';
    }
  });
});
