import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { extractText, getDocumentProxy } from 'unpdf';
import { keyData } from '../src/case-reports/pdf/format.ts';
import { renderThreads } from '../src/case-reports/pdf/render-off-thread.ts';
import { processCaseReport } from '../src/case-reports/process-report.ts';
import { CASE_REPORT_RENDERS_AT_ONCE } from '../src/case-reports/queues.ts';
import { insertCaseReport } from '../src/case-reports/repository.ts';
import { createConsoleUser, signInHeaders } from './helpers/console-session.ts';
import { refs, settledDocument } from './helpers/document-checks.ts';
import { downloadFile, uploadRef } from './helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';
import { passportPng } from './helpers/id-documents.ts';
import { pdfLines, pdfPlainText } from './helpers/pdf-words.ts';
import { type Receiver, startReceiver } from './helpers/receiver.ts';
import { kbisPdf } from './helpers/sample-documents.ts';

/**
 * Case reports through the HTTP API: the request (204, 400 on a bad timezone, 404 on another
 * workspace's case), the job's PDF read back as text, `CaseReport.Generated` through webhooks, the
 * report in the case documents, and a case with 200 entities.
 */

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => receiver.stop());

async function reportsOf(workspaceId: string, caseId: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('case_reports')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    .orderBy('requested_at')
    .execute();
}

/** Waits for the case's n-th report to be generated; its listing entry. */
async function generated(api: Client, caseId: string, n = 1) {
  return eventually(async () => {
    const res = await api.get(`/v1/cases/${caseId}/documents?type=case_report`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.length >= n && res.body.data[n - 1];
  }, 30_000);
}

async function pdfText(api: Client, fileId: string): Promise<{ text: string[]; pages: number }> {
  const file = await downloadFile(api, fileId);
  assert.equal(file.status, 200);
  assert.equal(file.bytes.subarray(0, 5).toString(), '%PDF-');
  const pdf = await getDocumentProxy(new Uint8Array(file.bytes));
  const { text, totalPages } = await extractText(pdf, { mergePages: false });
  return { text: text as string[], pages: totalPages };
}

/** An aml check on the company, once its screening has settled; as the API shows it. */
async function screenedAml(api: Client, companyId: string) {
  const aml = await api.post('/v1/checks/aml', { company_id: companyId });
  assert.equal(aml.status, 201, JSON.stringify(aml.body));
  return eventually(async () => {
    const r = await api.get(`/v1/checks/aml/${aml.body.id}`);
    return r.body.status !== 'processing' && r.body;
  }, 30_000);
}

/** A case with the sample graph, a check reviewed by API, a case review and a note with a comment. */
async function richCase(api: Client) {
  const body = sampleCaseBody(`ext-${randomUUID().slice(0, 8)}`);
  body.name = 'Société Générale Ødegård Müller';
  // drawn as written where DejaVu has the glyphs (Greek); CJK transliterated, never a failure
  body.companies.push({
    ref: 'tokyo',
    type: 'affiliated',
    name: 'Ωmega 東京 Trading 🚀',
    country: 'JP',
    relations: [{ roles: ['shareholder'], ownership_percentage: 5 }],
  } as (typeof body.companies)[number]);
  // what an onboarding officer calls and pays: the company's bank account, the person's phone
  Object.assign(body.companies[0], {
    banking_information: { iban: 'FR7630006000011234567890189', bic: 'AGRIFRPP882' },
  });
  for (const i of body.individuals as Record<string, unknown>[])
    if (i.first_name === 'Ada') i.phone_number = '+33612345678';
  const kase = await api.post('/v1/cases', { ...body, tags: ['vip'] });
  assert.equal(kase.status, 201, JSON.stringify(kase.body));
  const ada = kase.body.individuals.find((i: any) => i.first_name === 'Ada');
  const check = await api.post('/v1/checks/ekyc', { individual_id: ada.id });
  assert.equal(check.status, 201, JSON.stringify(check.body));
  const note = await api.post('/v1/notes', {
    case_id: kase.body.id,
    content: '<p>Called the CEO about Łódź branch</p>',
  });
  assert.equal(note.status, 201, JSON.stringify(note.body));
  const comment = await api.post(`/v1/notes/${note.body.id}/comments`, { content: 'Confirmed by phone' });
  assert.equal(comment.status, 201, JSON.stringify(comment.body));
  const review = await api.post(`/v1/cases/${kase.body.id}/reviews`, {
    status: 'approved',
    comment: 'All good',
  });
  assert.equal(review.status, 201, JSON.stringify(review.body));
  return { kase: kase.body, check: check.body };
}

describe('case reports', () => {
  test('invalid timezone → 400 naming timezone; unknown, foreign or deleted case → 404; bad id → 400', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const kase = (await api.post('/v1/cases', { name: 'tz' })).body;
    // an offset is not a tz database identifier (the reference: "Only accepts TZ identifier"),
    // though Node 22's Intl takes `+02:00` as a zone
    for (const timezone of ['Mars/Olympus', 'GMT+25', '', 'Europe/Paris; drop', '+02:00', '-0530', '+02']) {
      const res = await api.post(`/v1/cases/${kase.id}/generate-report`, { timezone });
      assert.equal(res.status, 400, `${timezone}: ${JSON.stringify(res.body)}`);
      assert.ok(
        res.body.details?.some((d: any) => d.path === 'timezone'),
        JSON.stringify(res.body),
      );
    }
    const unknownField = await api.post(`/v1/cases/${kase.id}/generate-report`, { tz: 'UTC' });
    assert.equal(unknownField.status, 400);
    assert.equal((await api.post(`/v1/cases/${randomUUID()}/generate-report`, {})).status, 404);
    assert.equal((await other.post(`/v1/cases/${kase.id}/generate-report`, {})).status, 404);
    assert.equal((await api.post('/v1/cases/not-a-uuid/generate-report', {})).status, 400);
    assert.equal((await api.delete(`/v1/cases/${kase.id}`)).status, 204);
    assert.equal((await api.post(`/v1/cases/${kase.id}/generate-report`, {})).status, 404);
    assert.equal((await reportsOf(api.workspaceId, kase.id)).length, 0);
  });

  test('204 without a body (default zone), with UTC and with Europe/Paris: each report in its zone', async () => {
    const api = await newWorkspace();
    const { app } = await getHarness();
    const kase = (await api.post('/v1/cases', { name: 'zones' })).body;
    const bare = await app.inject({
      method: 'POST',
      url: `/v1/cases/${kase.id}/generate-report`,
      headers: { 'x-service-api-key': api.key },
    });
    assert.equal(bare.statusCode, 204, bare.body);
    assert.equal(bare.body, '');
    await generated(api, kase.id, 1);
    assert.equal((await api.post(`/v1/cases/${kase.id}/generate-report`, { timezone: 'utc' })).status, 204);
    await generated(api, kase.id, 2);
    const paris = await api.post(`/v1/cases/${kase.id}/generate-report`, { timezone: 'Asia/Kolkata' });
    assert.equal(paris.status, 204);
    await generated(api, kase.id, 3);
    const rows = await reportsOf(api.workspaceId, kase.id);
    assert.deepEqual(
      rows.map((r) => [r.timezone, r.status]),
      [
        ['Europe/Paris', 'generated'],
        ['UTC', 'generated'],
        ['Asia/Kolkata', 'generated'],
      ],
    );
    const docs = (await api.get(`/v1/cases/${kase.id}/documents?type=case_report`)).body.data;
    const [first, utc, kolkata] = await Promise.all(docs.map((d: any) => pdfText(api, d.file_ids[0])));
    // the creation time of the case, as each report writes it
    assert.match(first.text.join('\n'), /Created\s+\d{4}-\d\d-\d\d \d\d:\d\d GMT\+0[12]:00/);
    // UTC shows its offset too, as every time of a report does (docs/case-reports.md)
    assert.match(utc.text.join('\n'), /Created\s+\d{4}-\d\d-\d\d \d\d:\d\d GMT\+00:00/);
    assert.match(utc.text[0], /Generated .*\d\d:\d\d GMT\+00:00 \(UTC\)/);
    assert.match(kolkata.text.join('\n'), /Created\s+\d{4}-\d\d-\d\d \d\d:\d\d GMT\+05:30/);
    assert.match(kolkata.text[0], /Generated .*GMT\+05:30 \(Asia\/Kolkata\)/);
  });

  test('the PDF shows the case, entities with relations, checks, reviews, notes and activity; event and listing', async () => {
    const api = await newWorkspace();
    const path = `/reports-${api.workspaceId}`;
    const hook = await api.post('/v1/webhooks', {
      name: 'reports',
      url: receiver.url(path),
      events: ['CaseReport.Generated'],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const { kase } = await richCase(api);
    assert.equal(
      (await api.post(`/v1/cases/${kase.id}/generate-report`, { timezone: 'Europe/Paris' })).status,
      204,
    );
    const entry = await generated(api, kase.id);
    assert.deepEqual(Object.keys(entry).sort(), ['file_ids', 'name', 'type', 'updated_at']);
    assert.equal(entry.type, 'case_report');
    // whole-case documents: in the default listing, not under an entity filter
    const all = (await api.get(`/v1/cases/${kase.id}/documents`)).body.data;
    assert.ok(all.some((d: any) => d.type === 'case_report'));
    const ofCompany = await api.get(
      `/v1/cases/${kase.id}/documents?type=case_report&company_id=${kase.companies[0].id}`,
    );
    assert.deepEqual(ofCompany.body.data, []);

    const { text, pages } = await pdfText(api, entry.file_ids[0]);
    const all_text = text.join('\n');
    for (const expected of [
      'Société Générale Ødegård Müller', // accents kept
      kase.external_id,
      'Acme SAS',
      'Acme Holding GmbH',
      'shareholder · 70% ownership of Acme SAS',
      'Ada Lovelace',
      'IBAN FR76 3000 6000 0112 3456 7890 189 · BIC AGRIFRPP882',
      '+33612345678',
      'legal representative',
      'position: CEO',
      'Alan Turing',
      'beneficial owner',
      'ekyc · approved · Ada Lovelace',
      'Called the CEO about Łódź branch', // Polish letters drawn as written (DejaVu)
      // Greek kept; CJK, which DejaVu lacks, transliterated and marked; an emoji is a `?` (it was
      // any-ascii's `:rocket:`, read as if typed so)
      'Ωmega ‹Dong Jing› Trading ?',
      'Text between ‹ › is transliterated from a script this document cannot show; the API holds it as written.',
      'Confirmed by phone',
      'All good',
      'API created case',
      'System approved check (ekyc) · Ada Lovelace',
      'API confirmed case review',
      'vip',
    ]) {
      assert.ok(all_text.includes(expected), `the report shows ${expected}:\n${all_text}`);
    }
    assert.ok(!all_text.includes(':rocket:'), all_text);
    // counts agree with their number ("1 note", not "1 notes")
    assert.match(all_text, /Contents\s+\d+ compan(y|ies), \d+ individuals?, \d+ checks?, \d+ notes?/);
    assert.doesNotMatch(all_text, /\b1 (companies|individuals|checks|notes)\b/);
    for (const [i, page] of text.entries()) {
      assert.ok(page.includes(`Page ${i + 1} of ${pages}`), `page ${i + 1} numbered: ${page.slice(-200)}`);
      assert.ok(page.includes('Case report: Société Générale'), `page ${i + 1} has the header`);
    }

    await receiver.waitFor(() => receiver.deliveries(path).length >= 1);
    const [delivery] = receiver.deliveries(path).map((r) => r.json);
    assert.equal(delivery.event, 'CaseReport.Generated');
    assert.deepEqual(Object.keys(delivery).sort(), ['context', 'event', 'report']);
    assert.equal(delivery.context.case.id, kase.id);
    assert.equal(delivery.context.workspace.id, api.workspaceId);
    const report = delivery.report;
    assert.deepEqual(Object.keys(report).sort(), ['download_url', 'download_url_expire_at', 'generated_at']);
    assert.match(report.download_url, new RegExp(`^https?://[^/]+/v1/files/${entry.file_ids[0]}$`));
    assert.ok(Date.parse(report.download_url_expire_at) > Date.parse(report.generated_at));
    assert.equal(report.generated_at, entry.updated_at);
    // the URL is the file endpoint: it downloads the same PDF with the API key
    const { app } = await getHarness();
    const viaUrl = await app.inject({
      method: 'GET',
      url: new URL(report.download_url).pathname,
      headers: { 'x-service-api-key': api.key },
    });
    assert.equal(viaUrl.statusCode, 200);
    assert.equal(viaUrl.rawPayload.subarray(0, 5).toString(), '%PDF-');
  });

  test('what a compliance officer relies on: aml hits and their review, fraud list matches, document criteria, who reviewed and wrote, every time in the zone', async () => {
    const api = await newWorkspace();
    const { app, ctx } = await getHarness();
    const user = await createConsoleUser(ctx, api.workspaceId, {
      role: 'reviewer',
      firstName: 'Élodie',
      lastName: 'Conformité',
    });
    const headers = await signInHeaders(app, user.email, user.password);
    const asUser = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
      const res = await app.inject({ method, url, headers, payload });
      assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      return JSON.parse(res.body);
    };
    const kase = await api.post('/v1/cases', {
      name: 'Compliance file',
      companies: [
        { type: 'main', name: 'Acme Industries SAS', country: 'FR', registration_number: '552100554' },
        { type: 'affiliated', name: 'Gaddafi International Charity and Development Foundation' },
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const [acme, listed] = kase.body.companies;
    // aml: a hit, confirmed by the console user with a comment
    const screened = await screenedAml(api, listed.id);
    assert.ok(screened.data.hits.length >= 1, JSON.stringify(screened.data));
    const hit = screened.data.hits[0];
    await asUser('PATCH', `/v1/checks/aml/${screened.id}/hits/review`, {
      action: 'confirm',
      hit_ids: [hit.id],
      comment: 'Same foundation, same registry number',
    });
    // fraud list: the workspace's own report matches its check
    const report = await api.post('/v1/fraud-database/reports', {
      company_id: acme.id,
      reason: 'Forged Kbis',
    });
    assert.equal(report.status, 201, JSON.stringify(report.body));
    const fraud = await api.post('/v1/checks/fraud_database', { company_id: acme.id });
    assert.equal(fraud.body.status, 'need_review', JSON.stringify(fraud.body));
    // document: an extract older than 3 months fails one criterion; the user approves it anyway
    const old = new Date(Date.now() - 120 * 86_400_000).toISOString().slice(0, 10);
    const doc = await api.post('/v1/checks/document', {
      company_id: acme.id,
      settings: { document_type_key: 'registration_certificate' },
      data: {
        files: await refs(api, [
          await kbisPdf({ name: 'Acme Industries SAS', siren: '552100554', date: old }),
        ]),
      },
    });
    assert.equal(doc.status, 201, JSON.stringify(doc.body));
    const analysed = await settledDocument(api, doc.body.id);
    assert.equal(analysed.data.detailed_results.document_analysis.valid_age_in_days.result, 'rejected');
    await asUser('PATCH', `/v1/checks/document/${doc.body.id}/review`, {
      action: 'approve',
      comment: 'Older extract accepted',
    });
    // a second extract, refused by the user; the client sends another, approved: the refusal stays
    const refusedDoc = await api.post('/v1/checks/document', {
      company_id: acme.id,
      settings: { document_type_key: 'registration_certificate' },
      data: {
        files: await refs(api, [
          await kbisPdf({ name: 'Acme Industries SAS', siren: '552100554', date: old }),
        ]),
      },
    });
    await settledDocument(api, refusedDoc.body.id);
    await asUser('PATCH', `/v1/checks/document/${refusedDoc.body.id}/review`, {
      action: 'reject',
      comment: 'Extract too old, ask for a new one',
    });
    const fresh = new Date().toISOString().slice(0, 10);
    const resent = await api.post(`/v1/checks/document/${refusedDoc.body.id}/add_files`, {
      files: await refs(api, [
        await kbisPdf({ name: 'Acme Industries SAS', siren: '552100554', date: fresh }),
      ]),
    });
    assert.ok(resent.status < 300, JSON.stringify(resent.body));
    assert.equal((await settledDocument(api, refusedDoc.body.id)).status, 'approved');
    const note = await asUser('POST', '/v1/notes', { case_id: kase.body.id, content: '<p>Escalated</p>' });
    await asUser('POST', `/v1/notes/${note.id}/comments`, { content: '<p>Seen by the MLRO</p>' });
    await asUser('POST', `/v1/cases/${kase.body.id}/reviews`, { status: 'rejected', comment: 'Sanctioned' });

    assert.equal(
      (await api.post(`/v1/cases/${kase.body.id}/generate-report`, { timezone: 'Asia/Kolkata' })).status,
      204,
    );
    const entry = await generated(api, kase.body.id);
    const text = (await pdfText(api, entry.file_ids[0])).text.join('\n');
    const who = `Élodie Conformité <${user.email}>`;
    for (const expected of [
      // the hit: who is listed, on which list, its status and score, and the review with its author
      'Hit 1: GADDAFI INTERNATIONAL CHARITY AND DEVELOPMENT FOUNDATION · sanction · true positive · score',
      'ofac_sdn 12685',
      `by ${who}`,
      '"Same foundation, same registry number"',
      // the fraud list match, its time in the zone
      'Match 1: registration_number · reported ',
      'by this workspace',
      // the document's criteria, the failed one with what was expected and read
      `rejected (expected issued between`,
      `read ${old})`,
      '"Older extract accepted"',
      // the earlier attempt of the document sent again, with the reviewer's reason
      `Attempt 1 rejected, ended `,
      `review by ${who}`,
      '"Extract too old, ask for a new one"',
      // case review, note and comment authors, the user's activities
      `rejected · by ${who}`,
      `· ${who}`,
      `${who} commented:`,
      `User ${who} confirmed case review`,
    ]) {
      // a long line may wrap anywhere between words: compared with the lines joined
      assert.ok(text.replace(/\s+/g, ' ').includes(expected), `the report shows ${expected}:\n${text}`);
    }
    assert.match(text, /Criterion valid age in days\s+rejected/);
    // the lists screened against, by name and version ("4 items" said nothing of which)
    const flat = text.replace(/\s+/g, ' ');
    const version = screened.data.vendor.list_versions[0];
    assert.ok(flat.includes(`${version.source} (${version.version})`), flat);
    assert.doesNotMatch(flat, /\d+ items?\b/);
    // the aml check's own facts, not the API's paths and ids: its match status, whether it is
    // monitored (one label), the screened subject
    assert.match(flat, /Match status true positive/);
    assert.match(flat, /Lists with hits sanction/);
    assert.match(flat, /Monitored (true|false)/);
    assert.match(flat, /Subject name Gaddafi International Charity and Development Foundation/);
    assert.doesNotMatch(
      flat,
      /Vendor (case|search) url|\/v1\/checks\/aml|Vendor customer id|Vendor search ref/,
    );
    assert.match(text, /Match 1: registration_number · reported \d{4}-\d\d-\d\d \d\d:\d\d GMT\+05:30/);
    // no instant left as the API writes it (vendor.created_at, screened_at...): all in the zone
    assert.doesNotMatch(text, /\d{4}-\d\d-\d\dT\d\d:\d\d/);
  });

  test('the summary comes first: the decision, the checks by status, and what needs attention with why', async () => {
    const api = await newWorkspace();
    const kase = await api.post('/v1/cases', {
      name: 'Approved against its checks',
      companies: [
        { type: 'main', name: 'Acme Industries SAS', country: 'FR', registration_number: '552100554' },
        { type: 'affiliated', name: 'Gaddafi International Charity and Development Foundation' },
      ],
      individuals: [{ first_name: 'Alan', last_name: 'Turing', relations: [{ roles: ['shareholder'] }] }],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const [, listed] = kase.body.companies;
    const screened = await screenedAml(api, listed.id);
    const hitIds = screened.data.hits.map((h: { id: string }) => h.id);
    assert.ok(hitIds.length >= 1, JSON.stringify(screened.data));
    const confirmed = await api.patch(`/v1/checks/aml/${screened.id}/hits/review`, {
      action: 'confirm',
      hit_ids: hitIds,
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    const rejected = await api.patch(`/v1/checks/aml/${screened.id}/review`, {
      action: 'reject',
      comment: 'Listed by OFAC',
    });
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    // a check left waiting for data: an id_document without images
    const waiting = await api.post('/v1/checks/id_document', { individual_id: kase.body.individuals[0].id });
    assert.equal(waiting.status, 201, JSON.stringify(waiting.body));
    const approve = await api.post(`/v1/cases/${kase.body.id}/reviews`, { status: 'approved' });
    assert.equal(approve.status, 201, JSON.stringify(approve.body));

    assert.equal((await api.post(`/v1/cases/${kase.body.id}/generate-report`, {})).status, 204);
    const { text } = await pdfText(api, (await generated(api, kase.body.id)).file_ids[0]);
    const all = text.join('\n').replace(/\s+/g, ' ');
    // on the first page, before the entities
    const first = text[0].replace(/\s+/g, ' ');
    assert.ok(first.indexOf('Summary') < first.indexOf('Companies'), first);
    for (const expected of [
      'Approved with 1 rejected check.',
      'Decision approved, ',
      'Risk not assessed',
      'Checks 2: 1 rejected, 1 waiting for data',
      'Needs attention (2)',
      `aml · rejected · Gaddafi International Charity and Development Foundation: ${hitIds.length} confirmed hit`,
      '"Listed by OFAC"',
      'id document · waiting for data · Alan Turing: waiting for data',
    ]) {
      assert.ok(first.includes(expected), `the summary says ${expected}:\n${first}`);
    }
    assert.match(all, /confirmed hits? \(sanction/);

    // a case whose checks are all approved says so, and flags nothing
    const clean = await api.post('/v1/cases', {
      name: 'Clean case',
      companies: [{ type: 'main', name: 'Clean SAS', country: 'FR' }],
      individuals: [
        { first_name: 'Ada', last_name: 'Lovelace', relations: [{ roles: ['legal_representative'] }] },
      ],
    });
    assert.equal(clean.status, 201, JSON.stringify(clean.body));
    const cleared = await screenedAml(api, clean.body.companies[0].id);
    assert.equal(cleared.status, 'approved', JSON.stringify(cleared.data));
    assert.equal((await api.post(`/v1/cases/${clean.body.id}/generate-report`, {})).status, 204);
    const cleanText = (await pdfText(api, (await generated(api, clean.body.id)).file_ids[0])).text[0].replace(
      /\s+/g,
      ' ',
    );
    assert.ok(cleanText.includes('Checks 1: 1 approved'), cleanText);
    assert.ok(
      cleanText.includes('Every check is approved; no confirmed hit, no fraud list match.'),
      cleanText,
    );
    assert.ok(!cleanText.includes('Needs attention'), cleanText);
    assert.ok(!cleanText.includes('Approved with'), cleanText);
  });

  test("an aml check whose hits are all decided but not itself: the summary says it awaits its decision, not the screening's old reason", async () => {
    const api = await newWorkspace();
    const kase = await api.post('/v1/cases', {
      name: 'Hits decided',
      companies: [
        { type: 'main', name: 'Acme Industries SAS', country: 'FR', registration_number: '552100554' },
        { type: 'affiliated', name: 'Gaddafi International Charity and Development Foundation' },
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const screened = await screenedAml(api, kase.body.companies[1].id);
    const hitIds = screened.data.hits.map((h: { id: string }) => h.id);
    assert.ok(hitIds.length >= 1, JSON.stringify(screened.data));
    assert.match(screened.data.review.comment, /to confirm or ignore/);
    const ignored = await api.patch(`/v1/checks/aml/${screened.id}/hits/review`, {
      action: 'ignore',
      hit_ids: hitIds,
    });
    assert.equal(ignored.status, 200, JSON.stringify(ignored.body));
    assert.equal((await api.post(`/v1/cases/${kase.body.id}/generate-report`, {})).status, 204);
    const { text } = await pdfText(api, (await generated(api, kase.body.id)).file_ids[0]);
    const first = text[0].replace(/\s+/g, ' ');
    assert.ok(
      first.includes('every hit is confirmed or ignored: the check awaits its decision'),
      `the summary says what is left:\n${first}`,
    );
    const summary = first.slice(first.indexOf('Summary'), first.indexOf('Companies ('));
    assert.ok(!summary.includes('to confirm or ignore'), summary);
  });

  test("an eKYC's fraud score is in the report, first of its data; rows past the limit are counted, not dropped silently", async () => {
    // the limit: a data of 12 plain fields shows 10 and says 2 more
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`field_${i}`, `value ${i}`]));
    const rows = keyData(many);
    assert.equal(rows.length, 11);
    assert.deepEqual(rows[10], ['More', '2 more fields of its data: read the check in the API']);
    assert.deepEqual(keyData({ a: 1 }), [['A', '1']]);

    const api = await newWorkspace();
    const kase = await api.post('/v1/cases', {
      name: 'Fraud signals',
      companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
      individuals: [
        {
          first_name: 'Elvis',
          last_name: 'Morey',
          birth_date: '1970-01-08',
          email: 'elvis@acme.test',
          phone_number: '+33949123456',
          address: { country: 'GB', city: 'London' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const ekyc = await api.post('/v1/checks/ekyc', {
      individual_id: kase.body.individuals[0].id,
      settings: { automatic_approval: false },
    });
    assert.equal(ekyc.status, 201, JSON.stringify(ekyc.body));
    const check = (await api.get(`/v1/checks/ekyc/${ekyc.body.id}`)).body;
    const score = check.data.fraud_signals?.fraud_score;
    assert.ok(score && score.score > 0, JSON.stringify(check.data.fraud_signals));
    assert.equal((await api.post(`/v1/cases/${kase.body.id}/generate-report`, {})).status, 204);
    const { text } = await pdfText(api, (await generated(api, kase.body.id)).file_ids[0]);
    const all = text.join('\n').replace(/\s+/g, ' ');
    assert.ok(all.includes(`Fraud score ${score.score} (${score.band.replace(/_/g, ' ')})`), all);
    for (const label of score.labels) assert.ok(all.includes(label.replace(/_/g, ' ')), `${label} in ${all}`);
  });

  test('an assignee without a name is named by the e-mail alone', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const user = await createConsoleUser(ctx, api.workspaceId, {
      role: 'reviewer',
      firstName: '',
      lastName: '',
    });
    const kase = (await api.post('/v1/cases', { name: 'Nameless assignee', assignee_id: user.id })).body;
    assert.equal((await api.post(`/v1/cases/${kase.id}/generate-report`, {})).status, 204);
    const entry = await generated(api, kase.id);
    const all = (await pdfText(api, entry.file_ids[0])).text.join('\n');
    assert.ok(all.includes(user.email), all);
    assert.ok(!all.includes(`<${user.email}>`), 'no empty name before the e-mail');
  });

  test('a case assigned to a free-text id (stored before assignees were checked) gets its report', async () => {
    const api = await newWorkspace();
    const kase = (await api.post('/v1/cases', { name: 'CRM assigned' })).body;
    const { ctx } = await getHarness();
    await ctx.db.updateTable('cases').set({ assignee_id: 'crm-user-42' }).where('id', '=', kase.id).execute();
    assert.equal((await api.post(`/v1/cases/${kase.id}/generate-report`, {})).status, 204);
    const entry = await generated(api, kase.id);
    const { text } = await pdfText(api, entry.file_ids[0]);
    assert.match(text.join('\n'), /CRM assigned/);
    const [report] = await reportsOf(api.workspaceId, kase.id);
    assert.equal(report.status, 'generated');
  });

  test('many reports asked at once are drawn a few at a time: every one is generated, never more threads than the bound', async () => {
    const api = await newWorkspace();
    const kase = (await api.post('/v1/cases', sampleCaseBody())).body;
    const asked = await Promise.all(
      Array.from({ length: 8 }, () => api.post(`/v1/cases/${kase.id}/generate-report`, {})),
    );
    assert.deepEqual(
      asked.map((r) => r.status),
      Array(8).fill(204),
    );
    await generated(api, kase.id, 8);
    const reports = await reportsOf(api.workspaceId, kase.id);
    assert.deepEqual(
      reports.map((r) => r.status),
      Array(8).fill('generated'),
    );
    // 8 threads at once before the bound (pg-boss fetched the whole batch); the process's most since it started
    assert.ok(
      renderThreads.peak >= 1 && renderThreads.peak <= CASE_REPORT_RENDERS_AT_ONCE,
      `peak ${renderThreads.peak}`,
    );
    assert.equal(renderThreads.running, 0);
  });

  test('a report whose case is deleted before its job runs fails, without event; a settled one is left alone', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = (await api.post('/v1/cases', { name: 'to delete' })).body;
    const report = await insertCaseReport(ctx.db, {
      id: randomUUID(),
      workspace_id: api.workspaceId,
      case_id: kase.id,
      timezone: 'UTC',
      base_url: 'http://127.0.0.1',
    });
    assert.equal((await api.delete(`/v1/cases/${kase.id}`)).status, 204);
    await processCaseReport(ctx, { reportId: report.id }, { retryCount: 0 });
    const [row] = await reportsOf(api.workspaceId, kase.id);
    assert.equal(row.status, 'failed');
    assert.match(row.error ?? '', /deleted/);
    await processCaseReport(ctx, { reportId: report.id }, { retryCount: 0 });
    assert.equal((await reportsOf(api.workspaceId, kase.id))[0].status, 'failed');
    const events = await ctx.db
      .selectFrom('events')
      .select('type')
      .where('workspace_id', '=', api.workspaceId)
      .where('type', '=', 'CaseReport.Generated')
      .execute();
    assert.deepEqual(events, []);
  });

  test('a case with 200 entities renders, every page numbered', async () => {
    const api = await newWorkspace();
    const companies = [
      { ref: 'main', type: 'main', name: 'Big Holding SA', country: 'FR' },
      ...Array.from({ length: 99 }, (_, i) => ({
        type: 'affiliated',
        name: `Subsidiary ${i + 1}`,
        country: 'DE',
        relations: [{ roles: ['shareholder'], ownership_percentage: (i % 50) + 1 }],
      })),
    ];
    const individuals = Array.from({ length: 100 }, (_, i) => ({
      first_name: `Person${i + 1}`,
      last_name: 'Zoë',
      relations: [{ roles: ['legal_representative'], position: `Director ${i + 1}` }],
    }));
    const kase = await api.post('/v1/cases', { name: 'Big case', companies, individuals });
    assert.equal(kase.status, 201, JSON.stringify(kase.body).slice(0, 500));
    assert.equal(
      (await api.post(`/v1/cases/${kase.body.id}/generate-report`, { timezone: 'UTC' })).status,
      204,
    );
    const entry = await generated(api, kase.body.id);
    const { text, pages } = await pdfText(api, entry.file_ids[0]);
    assert.ok(pages > 10, `${pages} pages`);
    const joined = text.join('\n');
    assert.ok(joined.includes('Subsidiary 99'));
    assert.ok(joined.includes('Person100 Zoë'));
    assert.ok(text[pages - 1].includes(`Page ${pages} of ${pages}`));
  });
});

// a suite of its own: the suite above is near its time budget on a loaded machine
describe('case reports: names as they are written', () => {
  test('Arabic and Hebrew names read right to left inside their lines, numbers and words around them in place', async () => {
    const api = await newWorkspace();
    // the sandbox's Saudi company with its officers and its holding (`أرامكو Holding`, 40 %)
    const found = await api.get(`/v1/company-data/search?country=SA&name=${encodeURIComponent('أرامكو')}`);
    assert.equal(found.status, 200, JSON.stringify(found.body));
    const created = await api.post('/v1/cases', {
      name: 'ملف أرامكو',
      companies: [{ type: 'main', search_ref: found.body.data[0].search_ref, import_related: true }],
      individuals: [
        {
          first_name: 'דוד',
          last_name: 'כהן',
          relations: [{ roles: ['shareholder'], ownership_percentage: 25 }],
        },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal((await api.post(`/v1/cases/${created.body.id}/generate-report`, {})).status, 204);
    const bytes = (await downloadFile(api, (await generated(api, created.body.id)).file_ids[0])).bytes;
    // pdftotext gives a right-to-left word back in typing order only when it was drawn right to
    // left: before, `أرامكو` after Latin came back `وكمارأ`, and a line beginning in Arabic was
    // turned around whole (`pihsrenwo %04 · redloherahs :gnidloH`)
    const text = pdfPlainText(bytes);
    for (const line of [
      'Case report: ملف أرامكو',
      // the holding's name begins right to left: laid out so (`Holding` at its left), and kept
      // apart from the sentence it is in
      'Holding أرامكو: shareholder · 40% ownership',
      'shareholder · 40% ownership of أرامكو',
      'דוד כהן: shareholder · 25% ownership',
      'shareholder · 25% ownership of أرامكو',
    ])
      assert.match(text, new RegExp(`^${line}$`, 'm'), `${line}\n${text}`);
    // words as drawn, left to right (pdftotext's reading moves a bracket next to Arabic): the name's
    // letters from right to left, then the words after it
    const drawn = (word: string) => [...word].reverse().join('');
    const lines = pdfLines(bytes);
    assert.ok(
      lines.some((words) => words.join(' ') === `${drawn('أرامكو')} (main company)`),
      JSON.stringify(lines.slice(0, 40)),
    );
  });

  test("an individual's middle name is in the report, as AML screens the full name (it was left out)", async () => {
    const api = await newWorkspace();
    const created = await api.post('/v1/cases', {
      name: 'Middle name',
      companies: [{ name: 'Analytical Engines Ltd', country: 'GB' }],
      individuals: [
        {
          first_name: 'Ada',
          last_name: 'Lovelace',
          birth_date: '1985-12-10',
          address: { country: 'GB' },
          relations: [{ roles: ['shareholder'], ownership_percentage: 30 }],
        },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const ada = created.body.individuals[0];
    const patched = await api.patch(`/v1/individuals/${ada.id}`, { middle_name: 'King' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const check = await api.post('/v1/checks/ekyc', { individual_id: ada.id });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    assert.equal(
      (await api.post(`/v1/cases/${created.body.id}/generate-report`, { timezone: 'UTC' })).status,
      204,
    );
    const entry = await generated(api, created.body.id);
    const all = (await pdfText(api, entry.file_ids[0])).text.join('\n');
    // the entity's heading, the company's related party, the check's target, the timeline's rows
    assert.match(all, /Individuals \(1\)\s+Ada King Lovelace/);
    assert.match(all, /Ada King Lovelace: shareholder · 30% ownership/);
    assert.match(all, /ekyc · [a-z ]+ · Ada King Lovelace/);
    assert.match(all, /API updated individual · Ada King Lovelace/);
  });

  test('an individual or company deleted since is still named in the activity, said to be deleted (rows had no name)', async () => {
    const api = await newWorkspace();
    const created = await api.post('/v1/cases', {
      name: 'Deleted entities',
      companies: [
        { name: 'Main', country: 'FR' },
        {
          type: 'affiliated',
          name: 'Łódź Trading',
          country: 'PL',
          relations: [{ roles: ['shareholder'], ownership_percentage: 10 }],
        },
      ],
      individuals: [
        {
          first_name: 'Иван',
          middle_name: 'Петрович',
          last_name: 'Ковалёв',
          birth_date: '1967-11-07',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const ivan = created.body.individuals[0];
    const trading = created.body.companies.find((c: any) => c.type === 'affiliated');
    // a document the service rejects: "System rejected check (id document)" in the timeline
    const check = await api.post('/v1/checks/id_document', {
      individual_id: ivan.id,
      data: { front_upload_ref: await uploadRef(api, passportPng({ outcome: 'rejected' })) },
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    await eventually(async () => {
      const r = await api.get(`/v1/checks/id_document/${check.body.id}`);
      return r.body.status === 'rejected';
    });
    assert.equal((await api.delete(`/v1/individuals/${ivan.id}`)).status, 204);
    assert.equal((await api.delete(`/v1/companies/${trading.id}`)).status, 204);
    assert.equal(
      (await api.post(`/v1/cases/${created.body.id}/generate-report`, { timezone: 'UTC' })).status,
      204,
    );
    const all = (await pdfText(api, (await generated(api, created.body.id)).file_ids[0])).text.join('\n');
    // an audit report says whose document was rejected and who was removed
    const ivanName = 'Иван Петрович Ковалёв \\(deleted\\)';
    for (const row of [
      `API created individual · ${ivanName}`,
      `API started check \\(id document\\) · ${ivanName}`,
      `System rejected check \\(id document\\) · ${ivanName}`,
      `API deleted individual · ${ivanName}`,
      'API deleted company · Łódź Trading \\(deleted\\)',
    ])
      assert.match(all, new RegExp(row), `${row}\n${all}`);
    // not listed among the case's entities: they are not in it any more
    assert.doesNotMatch(all, /Individuals \(1\)/);
  });
});
