import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { signatureEventsOf } from '../src/checks/types/electronic_signature/audit.ts';
import { closeMail } from '../src/mail/send-mail.ts';
import { downloadFile, makePng } from './helpers/files.ts';
import { type Client, eventually, getHarness, newWorkspace, type Res } from './helpers/harness.ts';
import { codeIn, type MailCatcher, startMailCatcher } from './helpers/mail-catcher.ts';
import { caseEvents, portal, portalToken } from './helpers/portal.ts';

// The electronic_signature check end to end through the public API and the portal's API, on both
// databases: creation and its 400s, the request started in the portal (the document frozen), the
// e-mailed one-time code, signing (files, status, events, audit trail), double submit, decline,
// attempts, expiry of the code and of the signing link, and the walls between links and workspaces.

const TEMPLATE = `<html><head><style>h1 { color: #123; }</style></head><body>
<h1>Engagement letter</h1>
<p>Between {{company.name}} and its legal representative {{signer.first_name}} {{signer.last_name}}.</p>
<p style="font-style: italic">Case: {{case.name}}</p>
</body></html>`;

let mail: MailCatcher;

const UA = 'Mozilla/5.0 (signature test)';
const IP = '203.0.113.7';

/** A portal call with a JSON body, from a known address and browser (the audit trail records both). */
async function sig(token: string, method: 'GET' | 'POST', url: string, body?: unknown): Promise<Res> {
  const { app } = await getHarness();
  const res = await app.inject({
    method,
    url: `/portal/api${url}`,
    remoteAddress: IP,
    headers: { authorization: `Bearer ${token}`, 'user-agent': UA },
    ...(body !== undefined ? { payload: body as object } : {}),
  });
  const json = String(res.headers['content-type'] ?? '').includes('json') && res.body;
  return {
    status: res.statusCode,
    body: json ? JSON.parse(res.body) : res.rawPayload,
    headers: res.headers,
  };
}

async function template(api: Client, key: string, kind = 'electronic_signature', publish = true) {
  const t = await api.post('/v1/document-templates', { key, name: 'Engagement letter', kind });
  assert.equal(t.status, 201, JSON.stringify(t.body));
  const v = await api.post(`/v1/document-templates/${key}/versions`, { content: TEMPLATE });
  assert.equal(v.status, 201, JSON.stringify(v.body));
  if (publish) {
    const p = await api.post(`/v1/document-templates/${key}/versions/${v.body.number}/publish`);
    assert.ok(p.status === 200 || p.status === 201, JSON.stringify(p.body));
  }
}

/** A case whose business contact (the signer) has an address of their own, so mails are told apart. */
async function signingCase(
  api: Client,
  signer: { first_name: string; middle_name?: string; last_name: string } = {
    first_name: 'Ada',
    last_name: 'Lovelace',
  },
) {
  const email = `ada.${Math.random().toString(36).slice(2, 10)}@example.com`;
  const res = await api.post('/v1/cases', {
    name: 'Signature case',
    companies: [{ type: 'main', name: 'Acme SAS', country: 'FR', registration_number: '552100554' }],
    individuals: [
      {
        ...signer,
        email,
        is_business_contact: true,
        relations: [{ roles: ['legal_representative'] }],
      },
      {
        first_name: 'Alan',
        last_name: 'Turing',
        email: `alan.${email}`,
        is_business_contact: true,
        relations: [{ roles: ['shareholder'] }],
      },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return {
    caseId: res.body.id as string,
    companyId: res.body.companies[0].id as string,
    adaId: res.body.individuals[0].id as string,
    alanId: res.body.individuals[1].id as string,
    email,
  };
}

async function createCheck(api: Client, individualId: string, settings: Record<string, unknown>) {
  return api.post('/v1/checks/electronic_signature', { individual_id: individualId, settings });
}

/** A started signature: template, check, case-wide link, start. */
async function started(
  settings: Record<string, unknown> = {},
  signer?: { first_name: string; middle_name?: string; last_name: string },
) {
  const api = await newWorkspace();
  await template(api, 'engagement');
  const c = await signingCase(api, signer);
  const created = await createCheck(api, c.adaId, { document_template_key: 'engagement', ...settings });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { token } = await portalToken(api, c.caseId, c.adaId);
  const start = await sig(token, 'POST', `/actions/${created.body.id}/signature/start`);
  assert.equal(start.status, 200, JSON.stringify(start.body));
  return { api, ...c, check: created.body, token, action: start.body };
}

/** Moves the check's last code back past the resend window (rather than waiting a minute). */
async function pastResendWindow(checkId: string): Promise<void> {
  const { ctx } = await getHarness();
  await ctx.db
    .updateTable('signature_requests')
    .set({ code_sent_at: new Date(Date.now() - 61_000) })
    .where('check_id', '=', checkId)
    .execute();
}

/** Moves the check's sent codes back a day: out of the daily cap's window (a test sending many mails). */
async function pastDailyCap(checkId: string): Promise<void> {
  const { ctx } = await getHarness();
  await ctx.db
    .updateTable('signature_events')
    .set({ at: new Date(Date.now() - 86_401_000) })
    .where('check_id', '=', checkId)
    .where('type', '=', 'code_sent')
    .execute();
}

async function sendCode(token: string, checkId: string, email: string): Promise<string> {
  const seen = mail.countTo(email);
  const res = await sig(token, 'POST', `/actions/${checkId}/signature/send-code`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return codeIn(await mail.next(email, seen));
}

function pdfText(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-'));
  try {
    fs.writeFileSync(path.join(dir, 'd.pdf'), bytes);
    return execFileSync('pdftotext', ['-layout', path.join(dir, 'd.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function pdfsig(bytes: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sig-'));
  try {
    fs.writeFileSync(path.join(dir, 'd.pdf'), bytes);
    // pdfsig exits non-zero for a document whose signature does not verify; its report says why
    try {
      return execFileSync('pdfsig', [path.join(dir, 'd.pdf')], { encoding: 'utf8' });
    } catch (err) {
      return String((err as { stdout?: string }).stdout ?? err);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function fileBytes(api: Client, id: string): Promise<Buffer> {
  const f = await downloadFile(api, id);
  assert.equal(f.status, 200);
  return f.bytes;
}

async function checkEventTypes(api: Client, caseId: string, checkId: string) {
  const types = ['Check.Started', 'Check.Approved', 'Check.Rejected', 'Check.ReviewNeeded'];
  const out: { type: string; actor: string | null }[] = [];
  for (const t of types) {
    for (const e of await caseEvents(api.workspaceId, caseId, t)) {
      if ((e.payload as { check?: { id: string } }).check?.id === checkId)
        out.push({ type: e.type, actor: e.actor_type });
    }
  }
  return out;
}

/**
 * Everything a portal call can leave behind for the workspace: its events (each written with its
 * webhook outbox row in the same statement, so a new event is a new webhook), its activities, the
 * case and the check as the API shows them, and the signature's audit trail.
 */
async function footprint(api: Client, caseId: string, checkId: string) {
  const { ctx } = await getHarness();
  const events = await ctx.db
    .selectFrom('events')
    .select(['seq', 'type', 'sub_event', 'actor_type'])
    .where('workspace_id', '=', api.workspaceId)
    .orderBy('seq')
    .execute();
  const outbox = await ctx.db
    .selectFrom('event_outbox')
    .select('seq')
    .where('workspace_id', '=', api.workspaceId)
    .orderBy('seq')
    .execute();
  // in the trail's own order: link_issued and opened may share their instant, and ids are random
  // (ordered by id alone, a run read them the other way round)
  const audit = (await signatureEventsOf(ctx.db, checkId)).map((e) => ({ id: e.id, type: e.type }));
  const activities = (await api.get(`/v1/activities?case_id=${caseId}`)).body.data;
  const kase = (await api.get(`/v1/cases/${caseId}`)).body;
  const check = (await api.get(`/v1/checks/electronic_signature/${checkId}`)).body;
  return { events, outbox, audit, activities, kase, check };
}

describe('electronic_signature', { timeout: 600_000 }, () => {
  let savedSmtpUrl: string | null = null;
  // the harness's one service sends its mail to this test's catcher while these tests run (set
  // and put back around this suite: the config is shared with the other test files of the process)
  before(async () => {
    mail = await startMailCatcher();
    const { ctx } = await getHarness();
    savedSmtpUrl = ctx.config.mail.smtpUrl;
    closeMail(ctx); // a transport made earlier for another address is dropped
    (ctx.config.mail as { smtpUrl: string | null }).smtpUrl = mail.url;
  });
  after(async () => {
    const { ctx } = await getHarness();
    closeMail(ctx);
    (ctx.config.mail as { smtpUrl: string | null }).smtpUrl = savedSmtpUrl;
    await mail?.close();
  });

  describe('electronic_signature: create', { timeout: 120_000 }, () => {
    test('201 in_progress, subtype, the reference data shape; GET; Check.Started; the contact has an action', async () => {
      const api = await newWorkspace();
      await template(api, 'engagement');
      const c = await signingCase(api);
      const res = await createCheck(api, c.adaId, { document_template_key: 'engagement' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const check = res.body;
      assert.equal(check.type, 'electronic_signature');
      assert.equal(check.status, 'in_progress');
      assert.equal(check.subtype, 'document_template:engagement');
      assert.equal(check.individual_id, c.adaId);
      assert.equal(check.is_internal, false);
      assert.deepEqual(check.data, {
        result: null,
        settings: { document_template_key: 'engagement', automatic_approval: true },
        vendor: {
          name: 'signature_provider_1',
          status: 'pending',
          signature_request_ref: null,
          signer_ref: null,
          document_ref: null,
          signature_link: null,
          signature_link_expiration_date: null,
          started_at: null,
          ended_at: null,
        },
        information: { file_id: null, signed_file_id: null, audit_trail_id: null },
        review: { comment: null, reviewed_at: null, reviewer_type: null, user: null },
      });
      const got = await api.get(`/v1/checks/electronic_signature/${check.id}`);
      assert.equal(got.status, 200);
      assert.deepEqual(got.body.data, check.data);
      assert.deepEqual(
        (await checkEventTypes(api, c.caseId, check.id)).map((e) => e.type),
        ['Check.Started'],
      );
      const kase = await api.get(`/v1/cases/${c.caseId}`);
      assert.equal(kase.body.contact_has_actions, true);
      const off = await createCheck(api, c.adaId, {
        document_template_key: 'engagement',
        automatic_approval: false,
      });
      assert.equal(off.status, 201);
      assert.equal(off.body.data.settings.automatic_approval, false);
    });

    test('every 400: settings missing, a bad key, an unknown template, a report template, a draft-only template, a company target', async () => {
      const api = await newWorkspace();
      await template(api, 'engagement');
      await template(api, 'annual_report', 'report');
      await template(api, 'draft_only', 'electronic_signature', false);
      const c = await signingCase(api);
      const cases: [unknown, string][] = [
        [{ individual_id: c.adaId }, 'settings'],
        [{ individual_id: c.adaId, settings: {} }, 'settings.document_template_key'],
        [
          { individual_id: c.adaId, settings: { document_template_key: 'Bad Key!' } },
          'settings.document_template_key',
        ],
        [
          { individual_id: c.adaId, settings: { document_template_key: 'nope' } },
          'settings.document_template_key',
        ],
        [
          { individual_id: c.adaId, settings: { document_template_key: 'annual_report' } },
          'settings.document_template_key',
        ],
        [
          { individual_id: c.adaId, settings: { document_template_key: 'draft_only' } },
          'settings.document_template_key',
        ],
        [
          {
            individual_id: c.adaId,
            settings: { document_template_key: 'engagement', automatic_approval: 'yes' },
          },
          'settings.automatic_approval',
        ],
        [{ company_id: c.companyId, settings: { document_template_key: 'engagement' } }, 'company_id'],
      ];
      for (const [body, field] of cases) {
        const res = await api.post('/v1/checks/electronic_signature', body);
        assert.equal(res.status, 400, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
        assert.ok(
          res.body.details?.some((d: { path: string }) => d.path === field),
          `${JSON.stringify(body)} names ${field}: ${JSON.stringify(res.body)}`,
        );
      }
      // another workspace's template key is unknown here; its individual is not found
      const other = await newWorkspace();
      await template(other, 'theirs');
      const theirs = await createCheck(api, c.adaId, { document_template_key: 'theirs' });
      assert.equal(theirs.status, 400);
      const oc = await signingCase(other);
      assert.equal((await createCheck(api, oc.adaId, { document_template_key: 'engagement' })).status, 404);
      // a signer without an e-mail address could never receive the code: refused, nothing stored
      const noMail = await api.post('/v1/individuals', {
        case_id: c.caseId,
        first_name: 'Grace',
        last_name: 'Hopper',
        relations: [{ to_company_id: c.companyId, roles: ['legal_representative'] }],
      });
      assert.equal(noMail.status, 201, JSON.stringify(noMail.body));
      const refused = await createCheck(api, noMail.body.id, { document_template_key: 'engagement' });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.deepEqual(
        refused.body.details.map((d: { path: string }) => d.path),
        ['email'],
      );
      assert.match(refused.body.message, /no email/);
      // a signer who is no business contact gets no portal link: refused too
      const notContact = await api.post('/v1/individuals', {
        case_id: c.caseId,
        first_name: 'Katherine',
        last_name: 'Johnson',
        email: 'katherine@example.com',
        relations: [{ to_company_id: c.companyId, roles: ['legal_representative'] }],
      });
      assert.equal(notContact.status, 201, JSON.stringify(notContact.body));
      const noLink = await createCheck(api, notContact.body.id, { document_template_key: 'engagement' });
      assert.equal(noLink.status, 400, JSON.stringify(noLink.body));
      assert.deepEqual(
        noLink.body.details.map((d: { path: string }) => d.path),
        ['is_business_contact'],
      );
      const list = await api.get(`/v1/cases/${c.caseId}`);
      assert.equal(list.body.contact_has_actions, false, 'no check was created');
      assert.equal((await api.get(`/v1/checks?case_id=${c.caseId}`)).body.data.length, 0);
      // a closed case: no link reaches it; reopened, the check is taken
      assert.equal((await api.post(`/v1/cases/${c.caseId}/reviews`, { status: 'closed' })).status, 201);
      const closed = await createCheck(api, c.adaId, { document_template_key: 'engagement' });
      assert.equal(closed.status, 400, JSON.stringify(closed.body));
      assert.equal(closed.body.details[0].path, 'individual_id');
      assert.match(closed.body.message, /The case is closed/);
      assert.equal((await api.get(`/v1/checks?case_id=${c.caseId}`)).body.data.length, 0);
      assert.equal((await api.patch(`/v1/cases/${c.caseId}`, { status: 'open' })).status, 200);
      assert.equal((await createCheck(api, c.adaId, { document_template_key: 'engagement' })).status, 201);
    });
  });

  describe('electronic_signature: check templates', { timeout: 120_000 }, () => {
    test('a template asks the business contact to sign; a template naming an unusable document template is refused', async () => {
      const api = await newWorkspace();
      await template(api, 'engagement');
      await template(api, 'draft_only', 'electronic_signature', false);
      const bad = await api.post('/v1/templates', {
        key: 'sign-bad',
        name: 'Signature (bad)',
        checks: [
          {
            type: 'electronic_signature',
            targets: ['business_contacts'],
            settings: { document_template_key: 'draft_only' },
          },
        ],
      });
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
      assert.equal(bad.body.details[0].path, 'checks[0].settings');
      assert.match(bad.body.message, /no published version/);
      const ok = await api.post('/v1/templates', {
        key: 'sign',
        name: 'Signature',
        checks: [
          {
            type: 'electronic_signature',
            targets: ['business_contacts'],
            settings: { document_template_key: 'engagement' },
          },
        ],
      });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      const kase = await api.post('/v1/cases', {
        name: 'Templated',
        template_key: 'sign',
        companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
        individuals: [
          {
            first_name: 'Ada',
            last_name: 'Lovelace',
            email: 'ada@example.com',
            is_business_contact: true,
            relations: [{ roles: ['legal_representative'] }],
          },
          { first_name: 'Alan', last_name: 'Turing', relations: [{ roles: ['shareholder'] }] },
        ],
      });
      assert.equal(kase.status, 201, JSON.stringify(kase.body));
      const checks = await api.get(`/v1/checks?case_id=${kase.body.id}`);
      const sigs = checks.body.data.filter((c: { type: string }) => c.type === 'electronic_signature');
      assert.equal(sigs.length, 1, JSON.stringify(checks.body));
      assert.equal(sigs[0].subtype, 'document_template:engagement');
      assert.equal(sigs[0].individual_id, kase.body.individuals[0].id);
      assert.equal(sigs[0].status, 'in_progress');
      // a business contact without an e-mail address: the case is refused, naming the individual
      const noMail = await api.post('/v1/cases', {
        name: 'Templated, no address',
        template_key: 'sign',
        companies: [{ type: 'main', name: 'Acme SAS', country: 'FR' }],
        individuals: [
          {
            first_name: 'Ada',
            last_name: 'Lovelace',
            is_business_contact: true,
            relations: [{ roles: ['legal_representative'] }],
          },
        ],
      });
      assert.equal(noMail.status, 400, JSON.stringify(noMail.body));
      assert.equal(noMail.body.details[0].path, 'individuals[0].email', JSON.stringify(noMail.body));
      assert.equal((await api.get('/v1/cases?name=Templated, no address')).body.data.length, 0);
    });
  });

  describe('electronic_signature: the request starts in the portal', { timeout: 120_000 }, () => {
    test('start freezes the document, sets the signing link; idempotent; only the signer sees the action', async () => {
      const api = await newWorkspace();
      await template(api, 'engagement');
      const c = await signingCase(api);
      const check = (await createCheck(api, c.adaId, { document_template_key: 'engagement' })).body;
      const { token } = await portalToken(api, c.caseId, c.adaId);
      const session = await portal(token, 'GET', '/session');
      const action = session.body.actions.find((a: { id: string }) => a.id === check.id);
      assert.equal(action.type, 'electronic_signature');
      assert.equal(action.state, 'todo');
      assert.deepEqual(action.slots, []);
      assert.equal(action.label, 'Engagement letter');
      // the template's name is the workspace's; what to do is said by the portal page in its language
      assert.equal(action.description, null);
      assert.equal(action.signature.status, 'not_started');
      assert.equal(action.signature.document_url, null);
      assert.deepEqual(action.signature.signer, { name: 'Ada Lovelace', email_hint: `a***@example.com` });
      // Alan is not the signer: his link does not show the check, and its routes are not found to him
      const alan = await portalToken(api, c.caseId, c.alanId);
      const alanSession = await portal(alan.token, 'GET', '/session');
      assert.ok(!alanSession.body.actions.some((a: { id: string }) => a.id === check.id));
      assert.equal((await sig(alan.token, 'POST', `/actions/${check.id}/signature/start`)).status, 404);
      // before start there is no document
      assert.equal((await sig(token, 'GET', `/actions/${check.id}/signature/document`)).status, 404);
      assert.equal((await sig(token, 'GET', `/actions/${check.id}/signature/document-parts`)).status, 404);
      assert.equal((await sig(token, 'POST', `/actions/${check.id}/signature/send-code`)).status, 400);

      const start = await sig(token, 'POST', `/actions/${check.id}/signature/start`);
      assert.equal(start.status, 200, JSON.stringify(start.body));
      const s = start.body.signature;
      assert.equal(s.status, 'ongoing');
      assert.match(s.document_sha256, /^[0-9a-f]{64}$/);
      assert.equal(s.document_url, `/portal/api/actions/${check.id}/signature/document`);
      assert.equal(s.document_html_url, `/portal/api/actions/${check.id}/signature/document.html`);
      assert.equal(s.signed_document_url, null);
      assert.ok(s.document_pages >= 1);
      const after1 = (await api.get(`/v1/checks/electronic_signature/${check.id}`)).body;
      assert.equal(after1.status, 'in_progress');
      const v = after1.data.vendor;
      assert.equal(v.status, 'ongoing');
      assert.match(v.signature_link, /\/portal\/#token=vcp_/);
      assert.ok(Date.parse(v.signature_link_expiration_date) > Date.now());
      assert.ok(v.started_at);
      assert.equal(v.ended_at, null);
      assert.equal(v.document_ref, `sha256:${s.document_sha256}`);
      assert.equal(v.signer_ref, c.adaId);
      assert.ok(v.signature_request_ref);
      assert.deepEqual(after1.data.information, {
        file_id: null,
        signed_file_id: null,
        audit_trail_id: null,
      });

      const pdf = await sig(token, 'GET', `/actions/${check.id}/signature/document`);
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers['content-type'], 'application/pdf');
      assert.match(pdfText(pdf.body), /Between Acme SAS and its legal representative Ada Lovelace/);
      const html = await sig(token, 'GET', `/actions/${check.id}/signature/document.html`);
      assert.equal(html.status, 200);
      assert.match(String(html.headers['content-type']), /^text\/html/);
      assert.match(String(html.headers['content-security-policy']), /default-src 'none'/);
      assert.match(String(html.body), /Acme SAS/);
      // the page's form: the same HTML with its styles apart (its CSP allows no inline style)
      const parts = await sig(token, 'GET', `/actions/${check.id}/signature/document-parts`);
      assert.equal(parts.status, 200, JSON.stringify(parts.body));
      assert.equal(parts.headers['cache-control'], 'no-store');
      assert.equal(parts.body.css, 'h1 { color: #123; }');
      assert.deepEqual(parts.body.inline, ['font-style: italic']);
      assert.doesNotMatch(parts.body.markup, /<style|\sstyle=/i);
      assert.ok(
        parts.body.markup.includes('<p data-vc-style="0">Case: Signature case</p>'),
        parts.body.markup,
      );
      assert.equal(
        parts.body.markup,
        String(html.body)
          .replace('<style>h1 { color: #123; }</style>', '')
          .replace('<p style="font-style: italic">', '<p data-vc-style="0">'),
        'nothing else changes',
      );

      // a second visit: same request, same link
      const again = await sig(token, 'POST', `/actions/${check.id}/signature/start`);
      assert.equal(again.status, 200);
      assert.equal(again.body.signature.document_sha256, s.document_sha256);
      const after2 = (await api.get(`/v1/checks/electronic_signature/${check.id}`)).body;
      assert.equal(after2.data.vendor.signature_link, v.signature_link);
      // the signing link opens the portal on this one check
      const linkToken = new URL(v.signature_link).hash.replace(/^#token=/, '');
      const own = await portal(linkToken, 'GET', '/session');
      assert.equal(own.status, 200);
      assert.equal(own.body.scope, 'check');
      assert.deepEqual(
        own.body.actions.map((a: { id: string }) => a.id),
        [check.id],
      );
      // the generic file steps are not for a signature, and their refusals say so
      const submit = await portal(token, 'POST', `/actions/${check.id}/submit`);
      assert.equal(submit.status, 400);
      assert.match(submit.body.message, /takes no files/);
      const { app } = await getHarness();
      const upload = await app.inject({
        method: 'POST',
        url: `/portal/api/actions/${check.id}/files?slot=files`,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=x' },
        payload:
          '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nx\r\n--x--\r\n',
      });
      assert.equal(upload.statusCode, 400, upload.body);
      assert.equal(JSON.parse(upload.body).details[0].path, 'slot');
      assert.equal(JSON.parse(upload.body).message, 'slot: this step takes no files');
      // the first start is a contact action (a repeated one changes nothing and records nothing)
      const kase = (await api.get(`/v1/cases/${c.caseId}`)).body;
      assert.ok(kase.last_contact_action_at);
    });

    test('a repeated start that changes nothing records nothing: no Case.Updated (no webhook), no activity, no audit entry', async () => {
      const s = await started();
      const url = `/actions/${s.check.id}/signature/start`;
      // the first opening is recorded: the request, its link, the visit, and a contact action
      const first = await footprint(s.api, s.caseId, s.check.id);
      assert.deepEqual(
        first.audit.map((e) => e.type),
        ['created', 'request_started', 'link_issued', 'opened'],
      );
      assert.ok(first.kase.last_contact_action_at, 'the first start is a contact action');
      assert.ok(
        first.events.some((e) => e.type === 'Case.Updated' && e.actor_type === 'contact'),
        JSON.stringify(first.events),
      );
      // twenty reloads of the page: each answers the same Action and leaves nothing behind
      for (let i = 0; i < 20; i++) {
        const again = await sig(s.token, 'POST', url);
        assert.equal(again.status, 200, JSON.stringify(again.body));
        assert.deepEqual(again.body, s.action);
      }
      const after = await footprint(s.api, s.caseId, s.check.id);
      assert.deepEqual(after.events, first.events, 'no event, hence no webhook');
      assert.ok(
        after.outbox.every((o) => first.events.some((e) => e.seq === o.seq)),
        'no new outbox row',
      );
      assert.deepEqual(after.activities, first.activities, 'no activity');
      assert.deepEqual(after.audit, first.audit, 'no audit entry');
      assert.deepEqual(after.kase, first.kase, 'no date of the case moves');
      assert.deepEqual(after.check, first.check);

      // a visit once the signing link expired does change something (a new link): it is recorded
      const { ctx } = await getHarness();
      await ctx.db
        .updateTable('client_portal_links')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('check_id', '=', s.check.id)
        .execute();
      const renewed = await sig(s.token, 'POST', url);
      assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
      const relinked = await footprint(s.api, s.caseId, s.check.id);
      assert.deepEqual(
        relinked.audit.slice(first.audit.length).map((e) => e.type),
        ['link_issued', 'opened'],
      );
      assert.notEqual(relinked.check.data.vendor.signature_link, first.check.data.vendor.signature_link);
      assert.deepEqual(
        relinked.events.slice(first.events.length).map((e) => [e.type, e.actor_type]),
        [['Case.Updated', 'contact']],
      );
      // and the next visits, through the new live link, again record nothing
      for (let i = 0; i < 3; i++) assert.equal((await sig(s.token, 'POST', url)).status, 200);
      const settled = await footprint(s.api, s.caseId, s.check.id);
      assert.deepEqual(settled.events, relinked.events);
      assert.deepEqual(settled.audit, relinked.audit);
      assert.deepEqual(settled.kase, relinked.kase);
    });

    test('a check decided by an operator before the signer came: start is refused, nothing is rendered', async () => {
      const api = await newWorkspace();
      await template(api, 'engagement');
      const c = await signingCase(api);
      const check = (await createCheck(api, c.adaId, { document_template_key: 'engagement' })).body;
      const review = await api.patch(`/v1/checks/electronic_signature/${check.id}/review`, {
        action: 'reject',
        comment: 'no longer needed',
      });
      assert.equal(review.status, 200, JSON.stringify(review.body));
      const { token } = await portalToken(api, c.caseId, c.adaId);
      const start = await sig(token, 'POST', `/actions/${check.id}/signature/start`);
      assert.equal(start.status, 400);
      assert.match(start.body.message, /rejected/);
      const { ctx } = await getHarness();
      const rows = await ctx.db
        .selectFrom('signature_requests')
        .select('id')
        .where('check_id', '=', check.id)
        .execute();
      assert.equal(rows.length, 0);
      const got = (await api.get(`/v1/checks/electronic_signature/${check.id}`)).body;
      assert.equal(got.data.vendor.signature_link, null);
    });

    test('the freeze: the company renamed after start, the signed document keeps the name it was shown with', async () => {
      const s = await started();
      const renamed = await s.api.patch(`/v1/companies/${s.companyId}`, { name: 'Renamed Corp' });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      const code = await sendCode(s.token, s.check.id, s.email);
      const signed = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code,
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(signed.status, 200, JSON.stringify(signed.body));
      const check = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body;
      const text = pdfText(await fileBytes(s.api, check.data.information.signed_file_id));
      assert.match(text, /Between Acme SAS and/);
      assert.doesNotMatch(text, /Renamed Corp/);
      const frozen = pdfText(await fileBytes(s.api, check.data.information.file_id));
      assert.match(frozen, /Acme SAS/);
    });
  });

  describe('electronic_signature: signing', { timeout: 180_000 }, () => {
    test('code by e-mail, sign: approved, three files, a valid PDF signature, the audit trail, events, case documents', async () => {
      const s = await started();
      const code = await sendCode(s.token, s.check.id, s.email);
      assert.match(code, /^\d{6}$/);
      // a resend within the minute is refused, with when it will be possible
      const soon = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/send-code`);
      assert.equal(soon.status, 429);
      assert.equal(soon.body.code, 'SIGNATURE_CODE_RESEND_TOO_SOON');
      const retryAfter = Number(soon.headers['retry-after']);
      assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
      // the code is stored hashed only
      const { ctx } = await getHarness();
      const row = await ctx.db
        .selectFrom('signature_requests')
        .selectAll()
        .where('check_id', '=', s.check.id)
        .executeTakeFirstOrThrow();
      assert.ok(row.code_hash && !row.code_hash.includes(code));
      const action = (await portal(s.token, 'GET', '/session')).body.actions.find(
        (a: { id: string }) => a.id === s.check.id,
      );
      assert.equal(action.signature.code.attempts_left, 5);
      assert.ok(action.signature.code.expires_at);
      // a wrong code first (counted), then the right one
      const wrong = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code: code === '000000' ? '111111' : '000000',
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body.details[0].path, 'code');
      assert.match(wrong.body.message, /4 attempts left/);
      const signed = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code,
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(signed.status, 200, JSON.stringify(signed.body));
      assert.equal(signed.body.state, 'approved');
      assert.equal(signed.body.signature.status, 'signed');
      assert.ok(signed.body.signature.signed_at);
      assert.equal(
        signed.body.signature.signed_document_url,
        `/portal/api/actions/${s.check.id}/signature/signed-document`,
      );

      const check = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body;
      assert.equal(check.status, 'approved');
      assert.equal(check.data.result, 'approved');
      assert.equal(check.data.vendor.status, 'done');
      assert.ok(check.data.vendor.ended_at);
      assert.equal(check.data.review.reviewer_type, 'system');
      const info = check.data.information;
      assert.ok(info.file_id && info.signed_file_id && info.audit_trail_id);
      assert.equal(new Set([info.file_id, info.signed_file_id, info.audit_trail_id]).size, 3);

      const signedPdf = await fileBytes(s.api, info.signed_file_id);
      const report = pdfsig(signedPdf);
      assert.match(report, /Signature is Valid/i, report);
      assert.match(pdfText(signedPdf), /Ada Lovelace/);
      // the signer can download it too
      const mine = await sig(s.token, 'GET', `/actions/${s.check.id}/signature/signed-document`);
      assert.equal(mine.status, 200);
      assert.ok(Buffer.compare(mine.body, signedPdf) === 0);

      const trail = pdfText(await fileBytes(s.api, info.audit_trail_id));
      for (const type of [
        'created',
        'request_started',
        'opened',
        'code_sent',
        'code_failed',
        'code_verified',
        'signed',
      ])
        assert.match(trail, new RegExp(type), `audit trail lists ${type}:\n${trail}`);
      assert.match(trail, new RegExp(IP.replaceAll('.', '\\.')));
      assert.match(trail, /signature test/);
      const frozenSha = s.action.signature.document_sha256 as string;
      assert.ok(trail.replace(/\s+/g, '').includes(frozenSha), 'the frozen document hash');

      assert.deepEqual(
        (await checkEventTypes(s.api, s.caseId, s.check.id)).map((e) => e.type),
        ['Check.Started', 'Check.Approved'],
      );
      const approvedBy = (await checkEventTypes(s.api, s.caseId, s.check.id))[1];
      // the signer's act: filed as the reference does (system__approved__check, it has no
      // contact__approved__check) with the contact as author, which the console and the case report
      // read as "signed the document" (docs/console.md, "Activity")
      assert.equal(approvedBy.actor, 'contact');
      const activities = (await s.api.get(`/v1/activities?case_id=${s.caseId}`)).body.data;
      const signedActivity = activities.find(
        (a: { type: string; context: { check?: { id: string } } }) =>
          a.type === 'system__approved__check' && a.context.check?.id === s.check.id,
      );
      assert.ok(signedActivity, JSON.stringify(activities.map((a: { type: string }) => a.type)));
      assert.equal(signedActivity.author_type, 'contact');
      assert.equal(signedActivity.author_id, s.adaId);
      // the case report's timeline says it as the console does, naming the client
      const asked = await s.api.post(`/v1/cases/${s.caseId}/generate-report`, {});
      assert.equal(asked.status, 204, JSON.stringify(asked.body));
      const reportId = await eventually(async () => {
        const listed = await s.api.get(`/v1/cases/${s.caseId}/documents?type=case_report`);
        return listed.body.data[0]?.file_ids[0] as string | undefined;
      });
      const timeline = pdfText(await fileBytes(s.api, reportId)).replace(/\s+/g, ' ');
      assert.match(timeline, /Ada Lovelace \(client\) signed the document/, timeline);
      assert.doesNotMatch(timeline, /System approved check \(electronic signature\)/);

      assert.equal((await s.api.get(`/v1/cases/${s.caseId}`)).body.contact_has_actions, false);
      const docs = await s.api.get(`/v1/cases/${s.caseId}/documents?type=check__electronic_signature`);
      assert.equal(docs.status, 200, JSON.stringify(docs.body));
      const entry = docs.body.data.find((d: { check_id?: string; check?: { id: string } }) =>
        JSON.stringify(d).includes(s.check.id),
      );
      assert.ok(entry, JSON.stringify(docs.body));
      assert.equal(entry.type, 'check__electronic_signature');
      for (const id of [info.file_id, info.signed_file_id, info.audit_trail_id])
        assert.ok(JSON.stringify(entry).includes(id), `case documents list ${id}`);

      // after the end: no more code, no second signature, no decline
      assert.equal((await sig(s.token, 'POST', `/actions/${s.check.id}/signature/send-code`)).status, 409);
      const twice = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code,
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(twice.status, 409);
      assert.equal(twice.body.code, 'SIGNATURE_ALREADY_COMPLETED');
      assert.equal(
        (await sig(s.token, 'POST', `/actions/${s.check.id}/signature/decline`, { reason: 'late' })).status,
        409,
      );
    });

    test('the audit trail lists the events in the order they happened, code_verified before signed', async () => {
      // code_verified and signed are recorded with the same timestamp, and request_started,
      // link_issued and opened within the same millisecond or two; the trail must still read in
      // the order the signer went through them. Several signatures: a tie broken by chance (a
      // random id) would show here with near certainty (2^-8 to pass), not once in a while.
      const api = await newWorkspace();
      await template(api, 'engagement');
      const c = await signingCase(api);
      const { token } = await portalToken(api, c.caseId, c.adaId);
      const expected = [
        'created',
        'request_started',
        'link_issued',
        'opened',
        'code_sent',
        'code_verified',
        'signed',
      ];
      for (let i = 0; i < 8; i++) {
        const created = await createCheck(api, c.adaId, { document_template_key: 'engagement' });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const id = created.body.id as string;
        assert.equal((await sig(token, 'POST', `/actions/${id}/signature/start`)).status, 200);
        const code = await sendCode(token, id, c.email);
        const signed = await sig(token, 'POST', `/actions/${id}/signature/sign`, {
          code,
          agreed: true,
          typed_name: 'Ada Lovelace',
        });
        assert.equal(signed.status, 200, JSON.stringify(signed.body));
        const check = (await api.get(`/v1/checks/electronic_signature/${id}`)).body;
        const trail = pdfText(await fileBytes(api, check.data.information.audit_trail_id));
        const listed = [...trail.matchAll(/^\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC (\w+)\s*$/gm)].map(
          (m) => m[1],
        );
        assert.deepEqual(listed, expected, `signature ${i + 1}:\n${trail}`);
      }
    });

    test('a mail server that refuses: 502, nothing recorded, the signer may ask again at once', async () => {
      const s = await started();
      const { ctx } = await getHarness();
      closeMail(ctx);
      (ctx.config.mail as { smtpUrl: string | null }).smtpUrl = 'smtp://127.0.0.1:1'; // nothing listens there
      let res: Res;
      try {
        res = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/send-code`);
      } finally {
        closeMail(ctx);
        (ctx.config.mail as { smtpUrl: string | null }).smtpUrl = mail.url;
      }
      assert.equal(res.status, 502, JSON.stringify(res.body));
      assert.equal(res.body.code, 'SIGNATURE_CODE_NOT_SENT');
      const row = await ctx.db
        .selectFrom('signature_requests')
        .select(['code_hash', 'code_sent_at'])
        .where('check_id', '=', s.check.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(row, { code_hash: null, code_sent_at: null });
      const code = await sendCode(s.token, s.check.id, s.email);
      assert.match(code, /^\d{6}$/);
    });

    test('double submit: two signatures at once complete once (one 200, one 409), one set of files', async () => {
      const s = await started();
      const code = await sendCode(s.token, s.check.id, s.email);
      const body = { code, agreed: true, typed_name: 'Ada Lovelace' };
      const [a, b] = await Promise.all([
        sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, body),
        sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, body),
      ]);
      assert.deepEqual(
        [a.status, b.status].sort(),
        [200, 409],
        `${JSON.stringify(a.body)} ${JSON.stringify(b.body)}`,
      );
      assert.deepEqual(
        (await checkEventTypes(s.api, s.caseId, s.check.id)).map((e) => e.type),
        ['Check.Started', 'Check.Approved'],
      );
      const { ctx } = await getHarness();
      const signedEvents = await ctx.db
        .selectFrom('signature_events')
        .select('type')
        .where('check_id', '=', s.check.id)
        .where('type', '=', 'signed')
        .execute();
      assert.equal(signedEvents.length, 1);
    });

    test('a drawn signature; automatic_approval false → need_review with Check.ReviewNeeded', async () => {
      const s = await started({ automatic_approval: false });
      const code = await sendCode(s.token, s.check.id, s.email);
      const png = makePng({ width: 120, height: 40, color: [20, 20, 120] });
      const res = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code,
        agreed: true,
        drawn_signature_png_base64: png.toString('base64'),
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.state, 'submitted');
      const check = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body;
      assert.equal(check.status, 'need_review');
      assert.equal(check.data.result, null);
      assert.ok(check.data.information.signed_file_id);
      assert.equal(
        check.data.review.comment,
        'Needs a review (automatic_approval is off): the signer signed with a valid one-time code; a person confirms the signature',
      );
      // sent to a person: vericase's doing, not the signer's
      assert.deepEqual(await checkEventTypes(s.api, s.caseId, s.check.id), [
        { type: 'Check.Started', actor: 'api' },
        { type: 'Check.ReviewNeeded', actor: 'system' },
      ]);
      const review = await s.api.patch(`/v1/checks/electronic_signature/${s.check.id}/review`, {
        action: 'approve',
      });
      assert.equal(review.status, 200, JSON.stringify(review.body));
      assert.equal(review.body.status, 'approved');
    });

    test('a Cyrillic, Greek and Polish name: drawn exactly in the signed PDF and in its signature dictionary, valid', async () => {
      const name = 'Дмитрий Ζωή Łukasz Ковалёв-Żółć';
      const s = await started({}, { first_name: 'Дмитрий Ζωή Łukasz', last_name: 'Ковалёв-Żółć' });
      const code = await sendCode(s.token, s.check.id, s.email);
      const res = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code,
        agreed: true,
        typed_name: name,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const check = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body;
      const signedPdf = await fileBytes(s.api, check.data.information.signed_file_id);
      const report = pdfsig(signedPdf);
      assert.match(report, /Signature Validation: Signature is Valid\./, report);
      assert.match(report, /Total document signed/, report);
      // the block: "Electronically signed by", the name (bold), the typed signature, all exact
      const text = pdfText(signedPdf);
      assert.match(text, new RegExp(`Electronically signed by\\s+${name}\\s+${name}`), text);
      // the signature dictionary's Name (what a reader's signature panel shows), a UTF-16BE text string
      const { PDFDocument, PDFDict, PDFName, PDFHexString } = await import('pdf-lib');
      const [field] = (await PDFDocument.load(signedPdf)).getForm().getFields();
      const dict = field.acroField.dict.lookup(PDFName.of('V'), PDFDict);
      const written = dict.lookup(PDFName.of('Name'));
      assert.ok(written instanceof PDFHexString);
      assert.equal(written.decodeText(), name);
    });

    test('a signer with a middle name who types without it: the block and the audit trail name them in full', async () => {
      const s = await started(
        {},
        { first_name: 'Zoë', middle_name: 'Ann', last_name: 'Müller-Lüdenscheidt' },
      );
      const code = await sendCode(s.token, s.check.id, s.email);
      const res = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code,
        agreed: true,
        typed_name: 'Zoe Muller-Ludenscheidt',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const info = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body.data.information;
      const signed = pdfText(await fileBytes(s.api, info.signed_file_id));
      // the name on record in full, then the signature as typed
      assert.match(
        signed,
        /Electronically signed by\s+Zoë Ann Müller-Lüdenscheidt\s+Zoe Muller-Ludenscheidt/,
        signed,
      );
      const trail = pdfText(await fileBytes(s.api, info.audit_trail_id));
      assert.match(trail, /Zoë Ann Müller-Lüdenscheidt/, trail);
    });

    test("the signed document's block and reason are in the page's language (sign's language), else the portal's default", async () => {
      /** Signs s's check with this body's language; the signed PDF's text, its /Reason, pdfsig's report. */
      const signIn = async (s: Awaited<ReturnType<typeof started>>, language?: string, sent?: string) => {
        const code = sent ?? (await sendCode(s.token, s.check.id, s.email));
        const res = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
          code,
          agreed: true,
          typed_name: 'Ada Lovelace',
          ...(language ? { language } : {}),
        });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const check = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body;
        const signedPdf = await fileBytes(s.api, check.data.information.signed_file_id);
        const { PDFDocument, PDFDict, PDFName, PDFHexString } = await import('pdf-lib');
        const [field] = (await PDFDocument.load(signedPdf)).getForm().getFields();
        const reason = field.acroField.dict.lookup(PDFName.of('V'), PDFDict).lookup(PDFName.of('Reason'));
        assert.ok(reason instanceof PDFHexString);
        return { text: pdfText(signedPdf), reason: reason.decodeText(), report: pdfsig(signedPdf) };
      };
      const oneLine = (text: string) => text.replace(/\s+/g, ' ');

      // a language outside the portal's list is refused before the code is looked at: no try spent
      const s = await started();
      const code = await sendCode(s.token, s.check.id, s.email);
      for (const language of ['xx', 'FR', 3]) {
        const res = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
          code,
          agreed: true,
          typed_name: 'Ada Lovelace',
          language,
        });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.details[0].path, 'language', JSON.stringify(res.body));
      }
      const request = await (await getHarness()).ctx.db
        .selectFrom('signature_requests')
        .select(['status', 'code_attempts'])
        .where('check_id', '=', s.check.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(request, { status: 'ongoing', code_attempts: 0 });

      // French: the block's words and the reason, in the block and in the signature's /Reason
      const fr = await signIn(s, 'fr', code);
      assert.match(fr.report, /Signature Validation: Signature is Valid\./, fr.report);
      const frText = oneLine(fr.text);
      assert.ok(frText.includes('Signé électroniquement par Ada Lovelace'), fr.text);
      assert.ok(frText.includes('Motif : Signature de « Engagement letter »'), fr.text);
      assert.ok(frText.includes('SHA-256 du document (avant signature) :'), fr.text);
      assert.doesNotMatch(fr.text, /Electronically signed|Reason:|before signing/);
      assert.equal(fr.reason, 'Signature de « Engagement letter »');

      // no language: the portal's default language, German here
      const d = await started();
      const portalId = (await d.api.get('/v1/client-portals')).body.data[0].id;
      const patched = await d.api.patch(`/v1/client-portals/${portalId}`, { default_language: 'de' });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const de = await signIn(d);
      const deText = oneLine(de.text);
      assert.ok(deText.includes('Elektronisch unterschrieben von Ada Lovelace'), de.text);
      assert.ok(deText.includes('Grund: Unterschrift für „Engagement letter“'), de.text);
      assert.ok(deText.includes('SHA-256 des Dokuments (vor der Unterschrift):'), de.text);
      assert.equal(de.reason, 'Unterschrift für „Engagement letter“');

      // Hungarian, the longest labels, read whole at the block's width; Japanese is written in English
      const hu = oneLine((await signIn(await started(), 'hu')).text);
      assert.ok(hu.includes('Elektronikusan aláírta Ada Lovelace'), hu);
      assert.ok(hu.includes('Indok: „Engagement letter” aláírása'), hu);
      assert.ok(hu.includes('A dokumentum SHA-256 kivonata (aláírás előtt):'), hu);
      const ja = await signIn(await started(), 'ja');
      assert.ok(oneLine(ja.text).includes('Reason: Signature of "Engagement letter"'), ja.text);
      assert.equal(ja.reason, 'Signature of "Engagement letter"');
    });

    test("an operator's review of an open request ends it: vendor cancelled, the portal shows it ended", async () => {
      const s = await started();
      await sendCode(s.token, s.check.id, s.email);
      const review = await s.api.patch(`/v1/checks/electronic_signature/${s.check.id}/review`, {
        action: 'reject',
        comment: 'cancelled by ops',
      });
      assert.equal(review.status, 200, JSON.stringify(review.body));
      assert.equal(review.body.status, 'rejected');
      assert.equal(review.body.data.vendor.status, 'cancelled');
      assert.ok(review.body.data.vendor.ended_at);
      const { ctx } = await getHarness();
      const request = await ctx.db
        .selectFrom('signature_requests')
        .select(['status', 'code_hash'])
        .where('check_id', '=', s.check.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(request, { status: 'cancelled', code_hash: null });
      const trail = await ctx.db
        .selectFrom('signature_events')
        .select('type')
        .where('check_id', '=', s.check.id)
        .orderBy('at')
        .execute();
      assert.equal(trail.at(-1)?.type, 'cancelled');
      const session = await sig(s.token, 'GET', '/session');
      assert.equal(session.status, 200, JSON.stringify(session.body));
      const action = session.body.actions.find((a: { id: string }) => a.id === s.check.id);
      assert.equal(action.signature.status, 'ended');
      // `state` follows the rejected check (the portal's states have no "closed": see
      // docs/electronic-signature.md); signature.status says it ended, and it takes nothing
      assert.equal(action.state, 'retry');
      assert.equal(action.can_submit, false);
      assert.deepEqual(action.slots, []);
      const submit = await sig(s.token, 'POST', `/actions/${s.check.id}/submit`);
      assert.equal(submit.status, 400, JSON.stringify(submit.body));
      assert.match(submit.body.message, /takes no files/);
      const code = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/send-code`);
      assert.equal(code.status, 400, JSON.stringify(code.body));
      assert.match(code.body.message, /no longer expected/);
      // opening it again shows it ended, and starts nothing
      const reopened = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/start`);
      assert.equal(reopened.status, 200, JSON.stringify(reopened.body));
      assert.equal(reopened.body.signature.status, 'ended');
      // never started, then approved by a reviewer: nothing to sign either
      const other = await createCheck(s.api, s.alanId, { document_template_key: 'engagement' });
      assert.equal(other.status, 201, JSON.stringify(other.body));
      const approved = await s.api.patch(`/v1/checks/electronic_signature/${other.body.id}/review`, {
        action: 'approve',
      });
      // said in its data as for a request ended while ongoing (the portal says 'ended')
      assert.equal(approved.body.data.vendor.status, 'cancelled');
      assert.ok(Date.parse(approved.body.data.vendor.ended_at) > 0, approved.body.data.vendor.ended_at);
      assert.equal(approved.body.data.vendor.started_at, null);
      const alan = await portalToken(s.api, s.caseId, s.alanId);
      const alanSession = await sig(alan.token, 'GET', '/session');
      const alanAction = alanSession.body.actions.find((a: { id: string }) => a.id === other.body.id);
      assert.equal(alanAction?.signature.status, 'ended');
    });

    test('sign 400s: agreed, no signature, both, a bad PNG, no code sent, unknown fields', async () => {
      const s = await started();
      const url = `/actions/${s.check.id}/signature/sign`;
      const cases: [unknown, string][] = [
        [{ code: '123456', agreed: false, typed_name: 'Ada Lovelace' }, 'agreed'],
        [{ code: '123456', typed_name: 'Ada Lovelace' }, 'agreed'],
        [{ code: '123456', agreed: true }, 'typed_name'],
        [
          {
            code: '123456',
            agreed: true,
            typed_name: 'Ada Lovelace',
            drawn_signature_png_base64: 'iVBORw0KGgo=',
          },
          'typed_name',
        ],
        [
          {
            code: '123456',
            agreed: true,
            drawn_signature_png_base64: Buffer.from('GIF89a').toString('base64'),
          },
          'drawn_signature_png_base64',
        ],
        [{ code: '123456', agreed: true, drawn_signature_png_base64: '!!!' }, 'drawn_signature_png_base64'],
        // a PNG header declaring 100000 × 100000 pixels in a few bytes (a decompression bomb)
        [
          { code: '123456', agreed: true, drawn_signature_png_base64: hugePngHeader().toString('base64') },
          'drawn_signature_png_base64',
        ],
        [{ agreed: true, typed_name: 'Ada Lovelace' }, 'code'],
        [{ code: '123456', agreed: true, typed_name: 'Ada Lovelace' }, 'code'], // no code was sent
        [{ code: '123456', agreed: true, typed_name: 'Ada Lovelace', signed_at: '2020-01-01' }, 'signed_at'],
      ];
      for (const [body, field] of cases) {
        const res = await sig(s.token, 'POST', url, body);
        assert.equal(res.status, 400, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`);
        assert.ok(
          res.body.details?.some((d: { path: string }) => d.path === field),
          `${JSON.stringify(body)} names ${field}: ${JSON.stringify(res.body)}`,
        );
      }
      const decline = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/decline`, {
        reason: '   ',
      });
      assert.equal(decline.status, 400);
      assert.equal(decline.body.details[0].path, 'reason');
      // an empty one in the same words as a blank one (it read "must NOT have fewer than 1 characters")
      for (const reason of ['', '   ']) {
        const blank = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/decline`, { reason });
        assert.deepEqual(blank.body.details, [{ path: 'reason', message: 'reason must not be blank' }]);
      }
      const noReason = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/decline`, {});
      assert.equal(noReason.status, 400);
      assert.equal(noReason.body.details[0].path, 'reason');
      assert.equal(
        (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body.status,
        'in_progress',
      );
    });

    test("a typed signature must be the signer's name: another name is a 400 that spends no try", async () => {
      const s = await started();
      const url = `/actions/${s.check.id}/signature/sign`;
      const code = await sendCode(s.token, s.check.id, s.email);
      for (const typed of ['Mickey Mouse', 'Ada', 'Ada Lovelace Byron']) {
        const res = await sig(s.token, 'POST', url, { code, agreed: true, typed_name: typed });
        assert.equal(res.status, 400, `${typed}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.details[0].path, 'typed_name');
        assert.match(res.body.message, /signer's name as on record \(Ada Lovelace\)/);
      }
      const { ctx } = await getHarness();
      const request = await ctx.db
        .selectFrom('signature_requests')
        .select(['code_attempts', 'status'])
        .where('check_id', '=', s.check.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(request, { code_attempts: 0, status: 'ongoing' });
      assert.equal(
        (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body.status,
        'in_progress',
      );
      // case, spacing and order are forgiven; the signed document carries the name as typed
      const ok = await sig(s.token, 'POST', url, { code, agreed: true, typed_name: '  lovelace   ADA ' });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const check = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body;
      assert.equal(check.status, 'approved');
      const trail = await ctx.db
        .selectFrom('signature_events')
        .select('type')
        .where('check_id', '=', s.check.id)
        .execute();
      assert.ok(trail.some((e) => e.type === 'signed'));
      assert.ok(!trail.some((e) => e.type === 'code_failed'), JSON.stringify(trail));

      // accents and a hyphen typed differently are the same name
      const z = await started({}, { first_name: 'Zoë', last_name: 'Martin-Łukasz' });
      const zcode = await sendCode(z.token, z.check.id, z.email);
      const zok = await sig(z.token, 'POST', `/actions/${z.check.id}/signature/sign`, {
        code: zcode,
        agreed: true,
        typed_name: 'zoe martin łukasz',
      });
      assert.equal(zok.status, 200, JSON.stringify(zok.body));

      // a letter no decomposition simplifies, typed as people type it without it: ł as l
      const m = await started({}, { first_name: 'Marie Anne', last_name: 'Curie-Skłodowska' });
      const mcode = await sendCode(m.token, m.check.id, m.email);
      const mok = await sig(m.token, 'POST', `/actions/${m.check.id}/signature/sign`, {
        code: mcode,
        agreed: true,
        typed_name: 'Marie Anne Curie-Sklodowska',
      });
      assert.equal(mok.status, 200, JSON.stringify(mok.body));

      // a Chinese name is written family name first, without a space: as the page says it
      const w = await started({}, { first_name: '小明', last_name: '王' });
      const wAction = (await portal(w.token, 'GET', '/session')).body.actions.find(
        (a: { id: string }) => a.id === w.check.id,
      );
      assert.equal(wAction.signature.signer.name, '王小明');
      const wcode = await sendCode(w.token, w.check.id, w.email);
      const wrong = await sig(w.token, 'POST', `/actions/${w.check.id}/signature/sign`, {
        code: wcode,
        agreed: true,
        typed_name: '王大明',
      });
      assert.equal(wrong.status, 400);
      assert.match(wrong.body.message, /as on record \(王小明\)/);
      const wok = await sig(w.token, 'POST', `/actions/${w.check.id}/signature/sign`, {
        code: wcode,
        agreed: true,
        typed_name: '王小明',
      });
      assert.equal(wok.status, 200, JSON.stringify(wok.body));
    });

    test('attempts exhausted: the fifth wrong code ends the code, even the right one is refused, a new code works', async () => {
      const s = await started();
      const code = await sendCode(s.token, s.check.id, s.email);
      const bad = code === '999999' ? '999998' : '999999';
      const url = `/actions/${s.check.id}/signature/sign`;
      // what cannot be a code is refused without spending one of the five tries
      for (const slip of ['12', '1234567', 'abcdef']) {
        const r = await sig(s.token, 'POST', url, { code: slip, agreed: true, typed_name: 'Ada Lovelace' });
        assert.equal(r.status, 400, slip);
        assert.equal(r.body.details[0].path, 'code');
      }
      const untouched = (await portal(s.token, 'GET', '/session')).body.actions.find(
        (a: { id: string }) => a.id === s.check.id,
      );
      assert.equal(untouched.signature.code.attempts_left, 5);
      const messages: string[] = [];
      for (let i = 0; i < 5; i++) {
        const r = await sig(s.token, 'POST', url, { code: bad, agreed: true, typed_name: 'Ada Lovelace' });
        assert.equal(r.status, 400);
        messages.push(r.body.message);
      }
      assert.match(messages[3], /1 attempt left/);
      assert.match(messages[4], /no attempt is left/);
      const right = await sig(s.token, 'POST', url, { code, agreed: true, typed_name: 'Ada Lovelace' });
      assert.equal(right.status, 400);
      assert.match(right.body.message, /Too many wrong codes/);
      const action = (await portal(s.token, 'GET', '/session')).body.actions.find(
        (a: { id: string }) => a.id === s.check.id,
      );
      assert.equal(action.signature.code.attempts_left, 0);
      // the resend window passed (moved back in the database rather than waited for)
      await pastResendWindow(s.check.id);
      const fresh = await sendCode(s.token, s.check.id, s.email);
      const ok = await sig(s.token, 'POST', url, { code: fresh, agreed: true, typed_name: 'Ada Lovelace' });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });

    test('a spent code: further attempts get the same 400 and append nothing; a new code restores the five tries', async () => {
      const s = await started();
      const url = `/actions/${s.check.id}/signature/sign`;
      const failedCount = async () =>
        (await footprint(s.api, s.caseId, s.check.id)).audit.filter((e) => e.type === 'code_failed').length;
      // before any code was sent there is nothing to guess: refused, and no try is recorded
      const none = await sig(s.token, 'POST', url, {
        code: '123456',
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(none.status, 400, JSON.stringify(none.body));
      assert.equal(none.body.details[0].path, 'code');
      assert.match(none.body.message, /No code was sent yet/);
      assert.equal(await failedCount(), 0);

      const code = await sendCode(s.token, s.check.id, s.email);
      const bad = code === '999999' ? '999998' : '999999';
      const failedBefore = await failedCount();
      for (let i = 0; i < 5; i++) {
        const r = await sig(s.token, 'POST', url, { code: bad, agreed: true, typed_name: 'Ada Lovelace' });
        assert.equal(r.status, 400, JSON.stringify(r.body));
      }
      const spent = await footprint(s.api, s.caseId, s.check.id);
      const failedSpent = spent.audit.filter((e) => e.type === 'code_failed').length;
      assert.equal(failedSpent - failedBefore, 5, 'one per try');
      // the code is spent: wrong codes, and the right one, are refused with the documented error,
      // and none of them adds an audit entry, an event (a webhook), an activity or a case change
      for (const given of [bad, bad, code, bad, code, bad, bad, bad, bad, bad]) {
        const r = await sig(s.token, 'POST', url, { code: given, agreed: true, typed_name: 'Ada Lovelace' });
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.deepEqual(r.body.details, [{ path: 'code', message: r.body.details[0].message }]);
        assert.equal(r.body.message, 'Too many wrong codes: ask for a new code');
      }
      const after = await footprint(s.api, s.caseId, s.check.id);
      assert.deepEqual(after.audit, spent.audit, 'the audit trail stops at the last try');
      assert.deepEqual(after.events, spent.events, 'no event, hence no webhook');
      assert.ok(
        after.outbox.every((o) => spent.events.some((e) => e.seq === o.seq)),
        'no new outbox row',
      );
      assert.deepEqual(after.activities, spent.activities);
      assert.deepEqual(after.kase, spent.kase);
      assert.deepEqual(after.check, spent.check);
      const { ctx } = await getHarness();
      const row = await ctx.db
        .selectFrom('signature_requests')
        .select('code_attempts')
        .where('check_id', '=', s.check.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.code_attempts, 5);
      const action = (await portal(s.token, 'GET', '/session')).body.actions.find(
        (a: { id: string }) => a.id === s.check.id,
      );
      assert.equal(action.signature.code.attempts_left, 0);

      // a new code (once the resend window passed) restores the tries, which are recorded again
      await pastResendWindow(s.check.id);
      const fresh = await sendCode(s.token, s.check.id, s.email);
      const resent = (await portal(s.token, 'GET', '/session')).body.actions.find(
        (a: { id: string }) => a.id === s.check.id,
      );
      assert.equal(resent.signature.code.attempts_left, 5);
      const freshBad = fresh === '999999' ? '999998' : '999999';
      const wrong = await sig(s.token, 'POST', url, {
        code: freshBad,
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(wrong.status, 400);
      assert.match(wrong.body.message, /4 attempts left/);
      assert.equal(await failedCount(), failedSpent + 1);
      const ok = await sig(s.token, 'POST', url, { code: fresh, agreed: true, typed_name: 'Ada Lovelace' });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.signature.status, 'signed');
    });

    test('wrong codes change nothing of the case: no Case.Updated (no webhook), only code_failed in the audit trail', async () => {
      const s = await started();
      const code = await sendCode(s.token, s.check.id, s.email);
      const bad = code === '999999' ? '999998' : '999999';
      const url = `/actions/${s.check.id}/signature/sign`;
      const caseBefore = (await s.api.get(`/v1/cases/${s.caseId}`)).body;
      const updatesBefore = await caseEvents(s.api.workspaceId, s.caseId, 'Case.Updated');
      // eight: the five tries of the code, then three more once it is spent
      for (let i = 0; i < 8; i++) {
        const r = await sig(s.token, 'POST', url, { code: bad, agreed: true, typed_name: 'Ada Lovelace' });
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.equal(r.body.details[0].path, 'code');
      }
      const updatesAfter = await caseEvents(s.api.workspaceId, s.caseId, 'Case.Updated');
      assert.equal(updatesAfter.length, updatesBefore.length, 'no Case.Updated for a wrong code');
      const caseAfter = (await s.api.get(`/v1/cases/${s.caseId}`)).body;
      assert.deepEqual(caseAfter, caseBefore, 'the case as the API shows it is unchanged');
      const check = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body;
      assert.equal(check.status, 'in_progress');
      const { ctx } = await getHarness();
      const failed = await ctx.db
        .selectFrom('signature_events')
        .select('type')
        .where('check_id', '=', s.check.id)
        .where('type', '=', 'code_failed')
        .execute();
      assert.equal(failed.length, 5, 'each try of the code is in the audit trail; once spent, no more');
      // a write the contact does make (a new code, the signature) is still a contact action
      await pastResendWindow(s.check.id);
      const fresh = await sendCode(s.token, s.check.id, s.email);
      const ok = await sig(s.token, 'POST', url, { code: fresh, agreed: true, typed_name: 'Ada Lovelace' });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      const contactUpdates = (await caseEvents(s.api.workspaceId, s.caseId, 'Case.Updated')).filter(
        (e) => e.actor_type === 'contact',
      );
      assert.ok(contactUpdates.length > updatesBefore.filter((e) => e.actor_type === 'contact').length);
    });

    test("the code's mail is in the page's language (send-code's language), else the portal's default", async () => {
      const s = await started();
      const url = `/actions/${s.check.id}/signature/send-code`;
      /** A send-code with this body, the resend window moved back first; its mail. */
      const mailFor = async (body?: unknown) => {
        await pastResendWindow(s.check.id);
        await pastDailyCap(s.check.id);
        const seen = mail.countTo(s.email);
        const res = await sig(s.token, 'POST', url, body);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return mail.next(s.email, seen);
      };
      // the field is validated like every portal field: 400 naming it, nothing sent
      for (const [body, field] of [
        [{ language: 'xx' }, 'language'],
        [{ language: 'FR' }, 'language'],
        [{ language: 3 }, 'language'],
        [{ lang: 'fr' }, 'lang'],
      ] as const) {
        const res = await sig(s.token, 'POST', url, body);
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.body.details[0].path, field, JSON.stringify(res.body));
      }
      assert.equal(mail.countTo(s.email), 0);

      const fr = await mailFor({ language: 'fr' });
      const frCode = codeIn(fr);
      assert.equal(fr.subject, 'Votre code de signature');
      assert.match(fr.text, /^Bonjour Ada Lovelace,$/m);
      assert.ok(fr.text.includes(`Votre code pour signer « Engagement letter » est : ${frCode}`), fr.text);
      assert.match(fr.text, /valable 10 minutes et peut être essayé 5 fois/);
      assert.doesNotMatch(fr.text, /Hello|Your code/);

      const en = await mailFor({ language: 'en' });
      const enCode = codeIn(en);
      assert.equal(en.subject, 'Your signing code');
      assert.match(en.text, /^Hello Ada Lovelace,$/m);
      assert.ok(en.text.includes(`Your code to sign "Engagement letter" is: ${enCode}`), en.text);
      assert.match(en.text, /valid for 10 minutes and can be tried 5 times/);

      // no language: the portal's default language (what the page falls back to), English by default
      assert.match((await mailFor()).subject, /^Your signing code$/);
      const portals = await s.api.get('/v1/client-portals');
      const portalId = portals.body.data[0].id;
      const patched = await s.api.patch(`/v1/client-portals/${portalId}`, { default_language: 'fr' });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.match((await mailFor()).subject, /^Votre code de signature$/);
      assert.match((await mailFor({})).subject, /^Votre code de signature$/);
      // the page's language wins
      assert.match((await mailFor({ language: 'en' })).subject, /^Your signing code$/);
      // German, Spanish, Italian and Dutch pages get the mail in their language, the same facts in it
      const de = await mailFor({ language: 'de' });
      const deCode = codeIn(de);
      assert.equal(de.subject, 'Ihr Code zum Unterschreiben');
      assert.match(de.text, /^Guten Tag Ada Lovelace,$/m);
      assert.ok(
        de.text.includes(`Ihr Code zum Unterschreiben von „Engagement letter“ lautet: ${deCode}`),
        de.text,
      );
      assert.match(de.text, /10 Minuten gültig und kann 5-mal eingegeben werden/);
      assert.doesNotMatch(de.text, /Hello|Your code|Bonjour/);
      for (const [language, subject, greeting, line, validity] of [
        [
          'es',
          'Su código de firma',
          'Hola, Ada Lovelace:',
          'Su código para firmar «Engagement letter» es',
          /válido durante 10 minutos y admite 5 intentos/,
        ],
        [
          'it',
          'Il suo codice di firma',
          'Gentile Ada Lovelace,',
          'il suo codice per firmare «Engagement letter» è',
          /valido per 10 minuti e può essere inserito al massimo 5 volte/,
        ],
        [
          'nl',
          'Uw ondertekeningscode',
          'Beste Ada Lovelace,',
          'Uw code om ‘Engagement letter’ te ondertekenen is',
          /10 minuten geldig en kan 5 keer worden geprobeerd/,
        ],
      ] as const) {
        const m = await mailFor({ language });
        const c = codeIn(m);
        assert.equal(m.subject, subject, language);
        assert.ok(m.text.split('\n').includes(greeting), m.text);
        assert.ok(m.text.includes(`${line}: ${c}`), m.text);
        assert.match(m.text, validity);
        assert.doesNotMatch(m.text, /Hello|Your code/);
      }
      // the portal's default language in German: a send-code without a language gets German
      const toGerman = await s.api.patch(`/v1/client-portals/${portalId}`, { default_language: 'de' });
      assert.equal(toGerman.status, 200, JSON.stringify(toGerman.body));
      assert.match((await mailFor()).subject, /^Ihr Code zum Unterschreiben$/);

      // the last code sent works, whatever the language
      const last = await mailFor({ language: 'fr' });
      const ok = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code: codeIn(last),
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });

    test("the code's mail in Portuguese, Polish, Hungarian, Japanese and Korean: the page's language, else the portal's default", async () => {
      const s = await started();
      const url = `/actions/${s.check.id}/signature/send-code`;
      const mailFor = async (body?: unknown) => {
        await pastResendWindow(s.check.id);
        await pastDailyCap(s.check.id);
        const seen = mail.countTo(s.email);
        const res = await sig(s.token, 'POST', url, body);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return mail.next(s.email, seen);
      };
      // each language: the subject, the greeting, the line with the code and the template's name
      // (the workspace's own text), the code's validity and tries; no English left
      const expected: Record<string, (code: string) => { subject: string; lines: string[] }> = {
        pt: (code) => ({
          subject: 'O seu código de assinatura',
          lines: [
            'Olá, Ada Lovelace,',
            `O seu código para assinar “Engagement letter” é: ${code}`,
            'O código é válido durante 10 minutos e permite 5 tentativas.',
          ],
        }),
        pl: (code) => ({
          subject: 'Kod do podpisu',
          lines: [
            'Dzień dobry, Ada Lovelace,',
            `Kod do podpisania dokumentu „Engagement letter” to: ${code}`,
            'Kod jest ważny przez 10 minut i można go wpisać maksymalnie 5 razy.',
          ],
        }),
        hu: (code) => ({
          subject: 'Az Ön aláírási kódja',
          lines: [
            'Kedves Ada Lovelace!',
            'Az aláírandó dokumentum: „Engagement letter”',
            `Az aláíráshoz szükséges kód: ${code}`,
            'A kód 10 percig érvényes, és legfeljebb 5 alkalommal próbálható meg.',
          ],
        }),
        ja: (code) => ({
          subject: '署名用の確認コード',
          lines: [
            'Ada Lovelace 様',
            `「Engagement letter」に署名するための確認コードは ${code} です。`,
            'このコードの有効期限は 10 分で、入力できるのは 5 回までです。',
          ],
        }),
        ko: (code) => ({
          subject: '서명 인증 코드',
          lines: [
            'Ada Lovelace 님, 안녕하세요.',
            `“Engagement letter” 문서에 서명하기 위한 인증 코드는 ${code}입니다.`,
            '이 코드는 10분 동안 유효하며, 최대 5회까지 입력할 수 있습니다.',
          ],
        }),
      };
      for (const [language, want] of Object.entries(expected)) {
        const m = await mailFor({ language });
        const { subject, lines } = want(codeIn(m));
        assert.equal(m.subject, subject, language);
        for (const line of lines) assert.ok(m.text.includes(line), `${language}: "${line}" in\n${m.text}`);
        assert.doesNotMatch(m.text, /Hello|Your code|valid for/, language);
      }

      // no language: the portal's default language, Polish here; the page's language still wins
      const portals = await s.api.get('/v1/client-portals');
      const patched = await s.api.patch(`/v1/client-portals/${portals.body.data[0].id}`, {
        default_language: 'pl',
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.match((await mailFor()).subject, /^Kod do podpisu$/);
      assert.match((await mailFor({ language: 'en' })).subject, /^Your signing code$/);
      const ja = await mailFor({ language: 'ja' });
      assert.match(ja.subject, /^署名用の確認コード$/);

      // the Japanese mail's code signs
      const ok = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code: codeIn(ja),
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });

    test('an expired code is refused; a new code replaces the old one', async () => {
      const s = await started();
      const first = await sendCode(s.token, s.check.id, s.email);
      const { ctx } = await getHarness();
      await ctx.db
        .updateTable('signature_requests')
        .set({
          code_expires_at: new Date(Date.now() - 1000),
          code_sent_at: new Date(Date.now() - 11 * 60_000),
        })
        .where('check_id', '=', s.check.id)
        .execute();
      const url = `/actions/${s.check.id}/signature/sign`;
      const expired = await sig(s.token, 'POST', url, {
        code: first,
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(expired.status, 400);
      assert.match(expired.body.message, /expired/);
      const second = await sendCode(s.token, s.check.id, s.email);
      if (second !== first) {
        const old = await sig(s.token, 'POST', url, {
          code: first,
          agreed: true,
          typed_name: 'Ada Lovelace',
        });
        assert.equal(old.status, 400, 'the first code no longer works');
      }
      const ok = await sig(s.token, 'POST', url, { code: second, agreed: true, typed_name: 'Ada Lovelace' });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });

    test('an expired code spends no try: refused as expired however often, nothing recorded; a wrong live code still counts', async () => {
      const s = await started();
      const code = await sendCode(s.token, s.check.id, s.email);
      const bad = code === '999999' ? '999998' : '999999';
      const url = `/actions/${s.check.id}/signature/sign`;
      const failed = async () =>
        (await footprint(s.api, s.caseId, s.check.id)).audit.filter((e) => e.type === 'code_failed').length;
      // a wrong code while the code is live spends a try, as before
      const wrong = await sig(s.token, 'POST', url, { code: bad, agreed: true, typed_name: 'Ada Lovelace' });
      assert.equal(wrong.status, 400, JSON.stringify(wrong.body));
      assert.match(wrong.body.message, /4 attempts left/);
      assert.equal(await failed(), 1);

      const { ctx } = await getHarness();
      await ctx.db
        .updateTable('signature_requests')
        .set({
          code_expires_at: new Date(Date.now() - 1000),
          code_sent_at: new Date(Date.now() - 11 * 60_000),
        })
        .where('check_id', '=', s.check.id)
        .execute();
      // more submissions than the code has tries: each is the expired error, none is counted
      for (const given of [code, code, bad, code, code, code]) {
        const r = await sig(s.token, 'POST', url, { code: given, agreed: true, typed_name: 'Ada Lovelace' });
        assert.equal(r.status, 400, JSON.stringify(r.body));
        assert.equal(r.body.message, 'The code has expired: ask for a new code');
        assert.deepEqual(r.body.details, [
          { path: 'code', message: 'The code has expired: ask for a new code' },
        ]);
      }
      assert.equal(await failed(), 1, 'an expired code records no code_failed');
      const row = await ctx.db
        .selectFrom('signature_requests')
        .select('code_attempts')
        .where('check_id', '=', s.check.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.code_attempts, 1, 'only the wrong live code was counted');

      const fresh = await sendCode(s.token, s.check.id, s.email);
      const ok = await sig(s.token, 'POST', url, { code: fresh, agreed: true, typed_name: 'Ada Lovelace' });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });
  });

  describe('electronic_signature: the dates and the portal after the end', { timeout: 180_000 }, () => {
    test("one instant: start, sign and decline write the check's updated_at and their own dates alike", async () => {
      const check = async (api: Client, id: string) =>
        (await api.get(`/v1/checks/electronic_signature/${id}`)).body;
      const s = await started();
      const opened = await check(s.api, s.check.id);
      assert.equal(opened.data.vendor.started_at, opened.updated_at);
      // signed: updated_at was a few ms before review.reviewed_at and vendor.ended_at (an operator's
      // review had them equal)
      const code = await sendCode(s.token, s.check.id, s.email);
      const res = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code,
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const signed = await check(s.api, s.check.id);
      assert.equal(signed.status, 'approved');
      assert.deepEqual(
        [signed.data.review.reviewed_at, signed.data.vendor.ended_at, res.body.signature.signed_at],
        [signed.updated_at, signed.updated_at, signed.updated_at],
      );
      const d = await started();
      const declined = await sig(d.token, 'POST', `/actions/${d.check.id}/signature/decline`, {
        reason: 'No',
      });
      assert.equal(declined.status, 200, JSON.stringify(declined.body));
      const after = await check(d.api, d.check.id);
      assert.deepEqual(
        [after.data.review.reviewed_at, after.data.vendor.ended_at, declined.body.signature.declined_at],
        [after.updated_at, after.updated_at, after.updated_at],
      );
    });

    test('all_submitted only once the signature is signed: not when closed, declined, or signed then rejected', async () => {
      const session = async (token: string) => {
        const res = await sig(token, 'GET', '/session');
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body as { all_submitted: boolean; actions: { state: string; signature: any }[] };
      };
      // closed by the operator after the signer opened it and asked for a code: the signer's page
      // said "Everything has been received" (state retry, signature ended, all_submitted true)
      const closed = await started();
      await sendCode(closed.token, closed.check.id, closed.email);
      const reject = await closed.api.patch(`/v1/checks/electronic_signature/${closed.check.id}/review`, {
        action: 'reject',
        comment: 'We cancel this request',
      });
      assert.equal(reject.status, 200, JSON.stringify(reject.body));
      const afterClose = await session(closed.token);
      assert.equal(afterClose.actions[0].signature.status, 'ended');
      assert.equal(afterClose.all_submitted, false);

      // closed before the signer ever opened it, by a rejection or by an approval
      const api = await newWorkspace();
      await template(api, 'engagement');
      const c = await signingCase(api);
      const early = (await createCheck(api, c.adaId, { document_template_key: 'engagement' })).body;
      const approve = await api.patch(`/v1/checks/electronic_signature/${early.id}/review`, {
        action: 'approve',
      });
      assert.equal(approve.status, 200, JSON.stringify(approve.body));
      const { token } = await portalToken(api, c.caseId, c.adaId);
      const approvedUnsigned = await session(token);
      assert.deepEqual(
        [approvedUnsigned.actions[0].state, approvedUnsigned.actions[0].signature.status],
        ['approved', 'ended'],
      );
      assert.equal(approvedUnsigned.all_submitted, false);

      // declined
      const declined = await started();
      const decline = await sig(declined.token, 'POST', `/actions/${declined.check.id}/signature/decline`, {
        reason: 'Not mine to sign',
      });
      assert.equal(decline.status, 200, JSON.stringify(decline.body));
      assert.equal((await session(declined.token)).all_submitted, false);

      // signed, waiting for a review: received; then rejected by the operator: no longer
      const signed = await started({ automatic_approval: false });
      const code = await sendCode(signed.token, signed.check.id, signed.email);
      const done = await sig(signed.token, 'POST', `/actions/${signed.check.id}/signature/sign`, {
        code,
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(done.status, 200, JSON.stringify(done.body));
      assert.equal((await session(signed.token)).all_submitted, true);
      const rejected = await signed.api.patch(`/v1/checks/electronic_signature/${signed.check.id}/review`, {
        action: 'reject',
      });
      assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
      const afterReject = await session(signed.token);
      assert.deepEqual(
        [afterReject.actions[0].state, afterReject.actions[0].signature.status],
        ['retry', 'signed'],
      );
      assert.equal(afterReject.all_submitted, false);
    });
  });

  describe('electronic_signature: the daily cap of codes', { timeout: 180_000 }, () => {
    /** The check's audit events of a type, oldest first. */
    async function auditOf(checkId: string, type: string) {
      const { ctx } = await getHarness();
      return ctx.db
        .selectFrom('signature_events')
        .select(['id', 'at'])
        .where('check_id', '=', checkId)
        .where('type', '=', type)
        .orderBy('at')
        .execute();
    }
    /** Moves one audit event back by a day and a second: out of the cap's window. */
    async function ageOut(id: string, at: Date) {
      const { ctx } = await getHarness();
      await ctx.db
        .updateTable('signature_events')
        .set({ at: new Date(new Date(at).getTime() - 86_401_000) })
        .where('id', '=', id)
        .execute();
    }
    async function signatureOf(token: string, checkId: string) {
      const actions = (await portal(token, 'GET', '/session')).body.actions;
      return actions.find((a: { id: string }) => a.id === checkId).signature;
    }

    test('10 codes sent in 24 hours: the 11th is a 429 SIGNATURE_CODE_LIMIT_REACHED until the oldest is a day old; nothing sent or recorded', async () => {
      const s = await started();
      let last = '';
      for (let i = 0; i < 10; i++) {
        if (i > 0) await pastResendWindow(s.check.id);
        last = await sendCode(s.token, s.check.id, s.email);
      }
      await pastResendWindow(s.check.id);
      const sent = await auditOf(s.check.id, 'code_sent');
      assert.equal(sent.length, 10);
      const mails = mail.countTo(s.email);
      const before = await footprint(s.api, s.caseId, s.check.id);

      const refused = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/send-code`);
      assert.equal(refused.status, 429, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'SIGNATURE_CODE_LIMIT_REACHED');
      const releaseAt = new Date(new Date(sent[0].at).getTime() + 86_400_000);
      assert.match(refused.body.message, /10 sent or 10 wrong/);
      assert.ok(refused.body.message.endsWith(releaseAt.toISOString()), refused.body.message);
      const retryAfter = Number(refused.headers['retry-after']);
      assert.ok(retryAfter > 86_000 && retryAfter <= 86_400, String(retryAfter));
      // no mail, no audit event, no case event, no webhook
      assert.equal(mail.countTo(s.email), mails);
      // the outbox drains on its own meanwhile: the events say no webhook was added
      const { outbox: _drained, ...after } = await footprint(s.api, s.caseId, s.check.id);
      const { outbox: _before, ...kept } = before;
      assert.deepEqual(after, kept);
      // the page is told when: the oldest send's 24 hours, not the minute after the last
      const shown = await signatureOf(s.token, s.check.id);
      assert.equal(shown.code.resend_available_at, releaseAt.toISOString());
      // the code already sent keeps its tries: it would still sign (checked at the end)
      assert.equal(shown.code.attempts_left, 5);

      // once the oldest send is more than a day old, one more code can be sent
      await ageOut(sent[0].id, sent[0].at);
      const again = await sendCode(s.token, s.check.id, s.email);
      await pastResendWindow(s.check.id);
      const full = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/send-code`);
      assert.equal(full.status, 429);
      assert.equal(full.body.code, 'SIGNATURE_CODE_LIMIT_REACHED');
      // the newest code replaced the previous one, and signs
      if (last !== again) {
        const old = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
          code: last,
          agreed: true,
          typed_name: 'Ada Lovelace',
        });
        assert.equal(old.status, 400);
      }
      const ok = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code: again,
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });

    test('10 wrong codes in 24 hours: no new code until the oldest wrong code is a day old', async () => {
      const s = await started();
      const url = `/actions/${s.check.id}/signature/sign`;
      const guess = async (code: string) => {
        const bad = code === '000000' ? '111111' : '000000';
        return sig(s.token, 'POST', url, { code: bad, agreed: true, typed_name: 'Ada Lovelace' });
      };
      for (let round = 0; round < 2; round++) {
        if (round > 0) await pastResendWindow(s.check.id);
        const code = await sendCode(s.token, s.check.id, s.email);
        for (let i = 0; i < 5; i++) assert.equal((await guess(code)).status, 400);
      }
      await pastResendWindow(s.check.id);
      const failed = await auditOf(s.check.id, 'code_failed');
      assert.equal(failed.length, 10);
      const mails = mail.countTo(s.email);
      const refused = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/send-code`);
      assert.equal(refused.status, 429, JSON.stringify(refused.body));
      assert.equal(refused.body.code, 'SIGNATURE_CODE_LIMIT_REACHED');
      assert.equal(mail.countTo(s.email), mails);
      assert.equal((await auditOf(s.check.id, 'code_sent')).length, 2);
      const releaseAt = new Date(new Date(failed[0].at).getTime() + 86_400_000).toISOString();
      assert.equal((await signatureOf(s.token, s.check.id)).code.resend_available_at, releaseAt);
      // the spent code still signs nothing
      const spent = await guess('');
      assert.equal(spent.status, 400);
      assert.match(spent.body.message, /Too many wrong codes/);

      await ageOut(failed[0].id, failed[0].at);
      const code = await sendCode(s.token, s.check.id, s.email);
      const ok = await sig(s.token, 'POST', url, { code, agreed: true, typed_name: 'Ada Lovelace' });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });
  });

  describe('electronic_signature: decline, link expiry, walls', { timeout: 120_000 }, () => {
    test('decline: rejected with the reason as review comment, Check.Rejected, nothing more can be done', async () => {
      const s = await started();
      const res = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/decline`, {
        reason: 'The fee in clause 3 is wrong',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.signature.status, 'declined');
      assert.equal(res.body.signature.decline_reason, 'The fee in clause 3 is wrong');
      assert.ok(res.body.signature.declined_at);
      const check = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body;
      assert.equal(check.status, 'rejected');
      assert.equal(check.data.result, 'rejected');
      assert.equal(check.data.vendor.status, 'declined');
      assert.equal(check.data.review.comment, 'The fee in clause 3 is wrong');
      assert.equal(check.data.review.reviewer_type, 'system');
      assert.deepEqual(check.data.information, { file_id: null, signed_file_id: null, audit_trail_id: null });
      assert.deepEqual(
        (await checkEventTypes(s.api, s.caseId, s.check.id)).map((e) => e.type),
        ['Check.Started', 'Check.Rejected'],
      );
      // a decline is final: the case does not wait for the signer to send anything again
      const kase = (await s.api.get(`/v1/cases/${s.caseId}`)).body;
      assert.ok(!kase.flags.includes('for_recollection'), JSON.stringify(kase.flags));
      assert.equal(kase.contact_has_actions, false);
      assert.equal((await sig(s.token, 'POST', `/actions/${s.check.id}/signature/send-code`)).status, 409);
      const again = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/decline`, { reason: 'x' });
      assert.equal(again.status, 409);
      const { ctx } = await getHarness();
      const events = await ctx.db
        .selectFrom('signature_events')
        .select(['type', 'ip', 'user_agent', 'details'])
        .where('check_id', '=', s.check.id)
        .orderBy('at')
        .execute();
      const declined = events.find((e) => e.type === 'declined');
      assert.deepEqual(
        { ip: declined?.ip, ua: declined?.user_agent, details: declined?.details },
        { ip: IP, ua: UA, details: { reason: 'The fee in clause 3 is wrong' } },
      );
      assert.equal(check.data.vendor.decline_reason, 'The fee in clause 3 is wrong');

      // an operator overrides the decision (signed on paper): their comment is theirs; the signer's
      // reason stays the signer's, in the check and in the portal (it showed the operator's comment
      // to the signer as their own reason)
      const override = await s.api.patch(`/v1/checks/electronic_signature/${s.check.id}/review`, {
        action: 'approve',
        comment: 'signed on paper, internal ref 42',
        override: true,
      });
      assert.equal(override.status, 200, JSON.stringify(override.body));
      assert.equal(override.body.data.review.comment, 'signed on paper, internal ref 42');
      assert.equal(override.body.data.vendor.decline_reason, 'The fee in clause 3 is wrong');
      assert.equal(override.body.data.vendor.status, 'declined');
      const session = await portal(s.token, 'GET', '/session');
      const shown = session.body.actions?.find((a: { id: string }) => a.id === s.check.id);
      assert.ok(shown, JSON.stringify(session.body));
      assert.equal(shown.signature.decline_reason, 'The fee in clause 3 is wrong');
      assert.equal(shown.signature.declined_at, res.body.signature.declined_at);
      assert.doesNotMatch(JSON.stringify(session.body), /internal ref 42/);
    });

    test('link expiry: the old signing link answers 401, a visit through the case link issues a new one', async () => {
      const s = await started();
      const first = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body.data.vendor;
      const oldToken = new URL(first.signature_link).hash.replace(/^#token=/, '');
      const { ctx } = await getHarness();
      await ctx.db
        .updateTable('client_portal_links')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('check_id', '=', s.check.id)
        .execute();
      const refused = await portal(oldToken, 'GET', '/session');
      assert.equal(refused.status, 401);
      // a signing link says it is one (the page then says how to get a new one, in any tab: it
      // knew only in a tab that had seen the link working); the case-wide link's expiry is generic
      assert.equal(refused.body.code, 'PORTAL_SIGNING_LINK_EXPIRED');
      assert.match(refused.body.message, /signing link has expired/);
      const write = await sig(oldToken, 'POST', `/actions/${s.check.id}/signature/send-code`);
      assert.deepEqual([write.status, write.body.code], [401, 'PORTAL_SIGNING_LINK_EXPIRED']);
      const visit = await sig(s.token, 'POST', `/actions/${s.check.id}/signature/start`);
      assert.equal(visit.status, 200);
      assert.equal(
        visit.body.signature.document_sha256,
        s.action.signature.document_sha256,
        'same frozen document',
      );
      const second = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body.data.vendor;
      assert.notEqual(second.signature_link, first.signature_link);
      assert.ok(Date.parse(second.signature_link_expiration_date) > Date.now());
      const newToken = new URL(second.signature_link).hash.replace(/^#token=/, '');
      assert.equal((await portal(newToken, 'GET', '/session')).status, 200);
      // signing through the new link works
      const code = await sendCode(newToken, s.check.id, s.email);
      const ok = await sig(newToken, 'POST', `/actions/${s.check.id}/signature/sign`, {
        code,
        agreed: true,
        typed_name: 'Ada Lovelace',
      });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });

    test('a signer who is no longer a business contact: the case link and the signing link are revoked, a code already sent signs nothing', async () => {
      const s = await started();
      const vendor = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body.data.vendor;
      const signing = new URL(vendor.signature_link).hash.replace(/^#token=/, '');
      const code = await sendCode(signing, s.check.id, s.email);
      const patched = await s.api.patch(`/v1/individuals/${s.adaId}`, { is_business_contact: false });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      for (const token of [s.token, signing]) {
        const refused = await sig(token, 'POST', `/actions/${s.check.id}/signature/sign`, {
          code,
          agreed: true,
          typed_name: 'Ada Lovelace',
        });
        assert.equal(refused.status, 401, JSON.stringify(refused.body));
        assert.equal(refused.body.code, 'PORTAL_LINK_REVOKED');
        assert.equal((await portal(token, 'GET', '/session')).body.code, 'PORTAL_LINK_REVOKED');
      }
      const check = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body;
      assert.equal(check.status, 'in_progress');
      assert.equal(check.data.information.signed_file_id, null);
    });

    test('a code dies with the address it went to and the link it was asked on: after an e-mail change or the signer set out of the case and back, through a new link, it signs nothing and spends no try', async () => {
      for (const change of ['email', 'relevance'] as const) {
        const s = await started();
        const code = await sendCode(s.token, s.check.id, s.email);
        const newEmail = `new.${s.email}`;
        if (change === 'email') {
          const patched = await s.api.patch(`/v1/individuals/${s.adaId}`, { email: newEmail });
          assert.equal(patched.status, 200, JSON.stringify(patched.body));
        } else {
          for (const is_relevant of [false, true]) {
            const patched = await s.api.post(`/v1/individuals/${s.adaId}/set-relevant`, { is_relevant });
            assert.equal(patched.status, 200, JSON.stringify(patched.body));
          }
        }
        assert.equal((await portal(s.token, 'GET', '/session')).body.code, 'PORTAL_LINK_REVOKED');
        // the operator shares a new link; the signer opens the document again and enters the old code
        const { token } = await portalToken(s.api, s.caseId, s.adaId);
        const again = await sig(token, 'POST', `/actions/${s.check.id}/signature/start`);
        assert.equal(again.status, 200, JSON.stringify(again.body));
        // the page shows no code as sent (the dead one would only be refused) and no wait for a new one
        const session = (await portal(token, 'GET', '/session')).body;
        const shown = session.actions.find((a: { id: string }) => a.id === s.check.id).signature.code;
        assert.deepEqual(
          {
            sent_at: shown.sent_at,
            expires_at: shown.expires_at,
            resend_available_at: shown.resend_available_at,
          },
          { sent_at: null, expires_at: null, resend_available_at: null },
          change,
        );
        assert.equal(shown.attempts_left, 5, change);
        const attempt = { code, agreed: true, typed_name: 'Ada Lovelace' };
        const refused = await sig(token, 'POST', `/actions/${s.check.id}/signature/sign`, attempt);
        assert.equal(refused.status, 400, `${change}: ${JSON.stringify(refused.body)}`);
        assert.equal(refused.body.details[0].path, 'code');
        assert.match(
          refused.body.message,
          change === 'email'
            ? /e-mail address that is no longer the signer's/
            : /link that has since been withdrawn/,
        );
        const check = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body;
        assert.equal(check.status, 'in_progress', change);
        assert.equal(check.data.information.signed_file_id, null);
        const { ctx } = await getHarness();
        const request = await ctx.db
          .selectFrom('signature_requests')
          .select(['code_attempts', 'status'])
          .where('check_id', '=', s.check.id)
          .executeTakeFirstOrThrow();
        assert.deepEqual(request, { code_attempts: 0, status: 'ongoing' }, change);
        // a new code, sent to the address on record now, signs; no minute's wait: the old code is dead
        const fresh = await sendCode(token, s.check.id, change === 'email' ? newEmail : s.email);
        const ok = await sig(token, 'POST', `/actions/${s.check.id}/signature/sign`, {
          ...attempt,
          code: fresh,
        });
        assert.equal(ok.status, 200, `${change}: ${JSON.stringify(ok.body)}`);
        const signed = (await s.api.get(`/v1/checks/electronic_signature/${s.check.id}`)).body;
        assert.equal(signed.status, 'approved', change);
      }
    });

    test("walls: another case's link, a document check's id, another workspace's check: 404 on every signing route", async () => {
      const s = await started();
      const other = await started();
      // a document check of the same case, waiting for the contact's files (shown by the case link)
      const doc = await s.api.post('/v1/checks/document', {
        company_id: s.companyId,
        settings: { document_type_key: 'registration_certificate' },
      });
      assert.equal(doc.status, 201, JSON.stringify(doc.body));
      const routes: ['GET' | 'POST', string, unknown?][] = [
        ['POST', 'start'],
        ['GET', 'document'],
        ['GET', 'document.html'],
        ['GET', 'document-parts'],
        ['GET', 'signed-document'],
        ['POST', 'send-code'],
        ['POST', 'sign', { code: '123456', agreed: true, typed_name: 'x' }],
        ['POST', 'decline', { reason: 'x' }],
      ];
      for (const [method, step, body] of routes) {
        const cross = await sig(s.token, method, `/actions/${other.check.id}/signature/${step}`, body);
        assert.equal(
          cross.status,
          404,
          `${step} of another workspace's check: ${JSON.stringify(cross.body)}`,
        );
        const wrongType = await sig(s.token, method, `/actions/${doc.body.id}/signature/${step}`, body);
        assert.equal(wrongType.status, 404, `${step} of a document check`);
        const none = await sig('vcp_nope', method, `/actions/${s.check.id}/signature/${step}`, body);
        assert.equal(none.status, 401);
      }
      // the other workspace's request is untouched
      const theirs = (await other.api.get(`/v1/checks/electronic_signature/${other.check.id}`)).body;
      assert.equal(theirs.status, 'in_progress');
      assert.equal((await s.api.get(`/v1/checks/electronic_signature/${other.check.id}`)).status, 404);
    });
  });
});

/** The first bytes of a PNG whose IHDR declares 100000 × 100000 pixels (no image data follows). */
function hugePngHeader(): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(100_000, 8);
  ihdr.writeUInt32BE(100_000, 12);
  ihdr[16] = 8; // bit depth
  ihdr[17] = 6; // RGBA
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}
