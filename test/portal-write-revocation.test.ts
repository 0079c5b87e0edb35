import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { makePng } from './helpers/files.ts';
import { type Client, getHarness, newWorkspace, type Res } from './helpers/harness.ts';
import { portal, portalCase, portalToken, portalUpload, portalUploadInFlight } from './helpers/portal.ts';

// A portal write is authorised by its link before its transaction; the link may be withdrawn in
// between (the contact leaves the case, the link is replaced, the case is deleted). Every write
// re-checks its link under lock as the first statement of its transaction (src/portal/auth.ts,
// lockLiveLink), so a write authorised before a withdrawal that commits first is refused with the
// withdrawn link's 401 and changes nothing (docs/client-portal.md, "Lifetime and revocation").

const png = () => makePng({ width: 9, height: 9 });

/** The contact's proof-of-address check: an action the portal lets the contact upload files to. */
async function documentCheck(api: Client, individualId: string): Promise<string> {
  const res = await api.post('/v1/checks/document', {
    individual_id: individualId,
    settings: { document_type_key: 'proof_of_address' },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

/** What a contact's write leaves behind: pending files, files stored, the contact's case updates. */
async function traces(workspaceId: string, caseId: string) {
  const { ctx } = await getHarness();
  const pending = await ctx.db
    .selectFrom('client_portal_pending_files')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute();
  const files = await ctx.db
    .selectFrom('files')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute();
  const contactEvents = await ctx.db
    .selectFrom('events')
    .select('seq')
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    .where('actor_type', '=', 'contact')
    .execute();
  const signatureEvents = await ctx.db
    .selectFrom('signature_events')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .execute();
  return {
    pending: pending.map((p) => p.id),
    files: files.map((f) => f.id),
    contactEvents: contactEvents.length,
    signatureEvents: signatureEvents.length,
  };
}

function assertRevoked(res: Res, what: string) {
  assert.equal(res.status, 401, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.code, 'PORTAL_LINK_REVOKED', what);
  assert.equal(res.body.message, 'This portal link was replaced or withdrawn: ask for a new one', what);
}

/** Ways a contact's case-wide link is withdrawn through the API. */
const WITHDRAWALS: [string, (api: Client, c: { caseId: string; contactId: string }) => Promise<Res>][] = [
  [
    'no longer a business contact',
    (api, c) => api.patch(`/v1/individuals/${c.contactId}`, { is_business_contact: false }),
  ],
  [
    'marked not relevant',
    (api, c) => api.post(`/v1/individuals/${c.contactId}/set-relevant`, { is_relevant: false }),
  ],
  ['e-mail changed', (api, c) => api.patch(`/v1/individuals/${c.contactId}`, { email: 'ada@example.org' })],
  [
    'the link replaced by a new one',
    (api, c) =>
      api.post(`/v1/cases/${c.caseId}/share-client-portal-link`, { business_contact_id: c.contactId }),
  ],
];

describe('portal: a write authorised before its link was withdrawn is refused', () => {
  for (const [what, withdraw] of WITHDRAWALS) {
    test(`an upload in flight when ${what}: 401 PORTAL_LINK_REVOKED, nothing recorded, its bytes dropped`, async () => {
      const api = await newWorkspace();
      const c = await portalCase(api);
      const check = await documentCheck(api, c.contactId);
      const { token } = await portalToken(api, c.caseId, c.contactId);
      const before = await traces(api.workspaceId, c.caseId);
      let withdrawn: Res | undefined;
      const res = await portalUploadInFlight(token, check, 'files', png(), async () => {
        withdrawn = await withdraw(api, c);
      });
      assert.ok(withdrawn, 'the withdrawal ran while the upload was in flight');
      assert.ok(withdrawn.status === 200 || withdrawn.status === 201, JSON.stringify(withdrawn.body));
      assertRevoked(res, what);
      // no pending file, no contact action, and the stored upload is gone (not left for the purge)
      assert.deepEqual(await traces(api.workspaceId, c.caseId), before);
      const action = await api.get(`/v1/checks/document/${check}`);
      assert.equal(action.body.status, 'in_progress');
    });
  }
});

// PostgreSQL only: a connection of the test plays the withdrawal and holds it open while the write
// runs (PostgreSQL's own view of its backends tells when the write waits; no timing). The embedded
// database runs one statement at a time on one connection, so there the ordering test above is all.
const url = process.env.DATABASE_URL;

/**
 * Runs `request` while a transaction of the test withdraws the link, and commits the withdrawal
 * once the request waits for it (or has answered, which a write that does not re-check its link
 * does). `case` mode takes the case's lock first and revokes the link once the request waits, as
 * every revocation of the service does (one lock order: the request must not hold the link then, or
 * the two would deadlock); `link` mode revokes the link's row alone and holds it.
 */
async function whileWithdrawing(
  mode: 'case' | 'link',
  ids: { caseId: string; linkId: string },
  request: () => Promise<Res>,
): Promise<{ res: Res; waited: boolean }> {
  const holder = new pg.Client({ connectionString: url });
  await holder.connect();
  try {
    await holder.query('begin');
    const revoke = () =>
      holder.query('update client_portal_links set revoked_at = now() where id = $1', [ids.linkId]);
    if (mode === 'case')
      await holder.query('select id from cases where id = $1 for no key update', [ids.caseId]);
    else await revoke();
    const { rows } = await holder.query('select pg_backend_pid() as pid');
    let answered = false;
    const running = request().finally(() => {
      answered = true;
    });
    let waited = false;
    for (const started = Date.now(); !answered && Date.now() - started < 30_000; ) {
      const { rows: waiting } = await holder.query(
        `select count(*)::int as n from pg_locks where not granted and pid <> $1 and pid in
           (select pid from pg_stat_activity where datname = current_database())`,
        [rows[0].pid],
      );
      if (waiting[0].n > 0) {
        waited = true;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    if (mode === 'case') await revoke();
    await holder.query('commit');
    return { res: await running, waited };
  } finally {
    await holder.end();
  }
}

async function postJson(token: string, path: string, body: unknown): Promise<Res> {
  const { app } = await getHarness();
  const res = await app.inject({
    method: 'POST',
    url: `/portal/api${path}`,
    headers: { authorization: `Bearer ${token}` },
    payload: body as object,
  });
  const json = String(res.headers['content-type'] ?? '').includes('json') && res.body;
  return { status: res.statusCode, body: json ? JSON.parse(res.body) : res.body, headers: res.headers };
}

async function signatureCheck(api: Client, individualId: string): Promise<string> {
  const res = await api.post('/v1/checks/electronic_signature', {
    individual_id: individualId,
    settings: { document_template_key: 'race_sig' },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

describe('portal: every write re-checks its link under lock (PostgreSQL)', {
  skip: !url && 'PostgreSQL only',
  timeout: 300_000,
}, () => {
  test('each write waits for a withdrawal in progress, then refuses: 401 PORTAL_LINK_REVOKED, nothing changed', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const c = await portalCase(api);
    assert.equal(
      (
        await api.post('/v1/document-templates', {
          key: 'race_sig',
          name: 'Letter',
          kind: 'electronic_signature',
        })
      ).status,
      201,
    );
    assert.equal(
      (await api.post('/v1/document-templates/race_sig/versions', { content: '<p>{{signer.full_name}}</p>' }))
        .status,
      201,
    );
    assert.equal((await api.post('/v1/document-templates/race_sig/versions/1/publish')).status, 200);
    const doc = await documentCheck(api, c.contactId);
    const started = await signatureCheck(api, c.contactId);
    const unstarted = await signatureCheck(api, c.contactId);
    const setup = await portalToken(api, c.caseId, c.contactId);
    const uploaded = await portalUpload(setup.token, doc, 'files', png());
    assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
    const pendingId: string = uploaded.body.slots[0].files[0].id;
    assert.equal((await portal(setup.token, 'POST', `/actions/${started}/signature/start`)).status, 200);

    const writes: [string, (token: string) => Promise<Res>][] = [
      ['upload', (t) => portalUpload(t, doc, 'files', png())],
      ['remove a pending file', (t) => portal(t, 'DELETE', `/actions/${doc}/files/${pendingId}`)],
      ['submit', (t) => portal(t, 'POST', `/actions/${doc}/submit`)],
      ['start a signature', (t) => portal(t, 'POST', `/actions/${unstarted}/signature/start`)],
      ['send a code', (t) => postJson(t, `/actions/${started}/signature/send-code`, {})],
      [
        'sign',
        (t) =>
          postJson(t, `/actions/${started}/signature/sign`, {
            code: '000000',
            agreed: true,
            typed_name: 'Ada Lovelace',
          }),
      ],
      ['decline', (t) => postJson(t, `/actions/${started}/signature/decline`, { reason: 'not mine' })],
    ];
    for (const mode of ['case', 'link'] as const) {
      for (const [what, write] of writes) {
        const label = `${what} (${mode})`;
        // a fresh link (the last one was revoked), used once so the request's own bookkeeping
        // (last_used_at) has nothing to write and only the write's transaction meets the lock
        const link = await portalToken(api, c.caseId, c.contactId);
        assert.equal((await portal(link.token, 'GET', '/session')).status, 200, label);
        // a code was sent more than a minute ago, and none spent: send-code and sign would write
        await ctx.db
          .updateTable('signature_requests')
          .set({
            code_sent_at: new Date(Date.now() - 61_000),
            code_expires_at: new Date(Date.now() + 600_000),
            code_attempts: 0,
            code_hash: 'ab',
          })
          .where('check_id', '=', started)
          .execute();
        const before = await traces(api.workspaceId, c.caseId);
        const { res, waited } = await whileWithdrawing(mode, { caseId: c.caseId, linkId: link.linkId }, () =>
          write(link.token),
        );
        assertRevoked(res, label);
        assert.ok(waited, `${label}: the write waited for the withdrawal`);
        assert.deepEqual(await traces(api.workspaceId, c.caseId), before, label);
      }
    }
    for (const id of [doc, started, unstarted]) {
      const check = await api.get(`/v1/checks/${id === doc ? 'document' : 'electronic_signature'}/${id}`);
      assert.equal(check.body.status, 'in_progress', id);
    }
  });
});
