import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { findLiveLinkByToken } from '../src/client-portals/links.ts';
import { loadConfig } from '../src/config.ts';
import { makePdf, makePng, uploadRef } from './helpers/files.ts';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';
import { type Receiver, startReceiver } from './helpers/receiver.ts';

/**
 * The operator side of the client portal through the HTTP API: the workspace's default portal
 * (list, read, update, 404 across workspaces), sharing a link (every precondition, the token kept
 * hashed, revocation by a new link and by closing the case, the lifetime), wait steps, and the
 * case's contact_has_actions with its events.
 */

const HOUR = 3_600_000;

/** A case whose individuals cover every share precondition. */
async function portalCase(api: Client, name = 'Portal case') {
  const res = await api.post('/v1/cases', {
    name,
    companies: [{ ref: 'acme', type: 'main', name: 'Acme SAS', country: 'FR' }],
    individuals: [
      {
        ref: 'contact',
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        is_business_contact: true,
        relations: [{ roles: ['legal_representative'] }],
      },
      {
        ref: 'noemail',
        first_name: 'Alan',
        last_name: 'Turing',
        is_business_contact: true,
        relations: [{ roles: ['legal_representative'] }],
      },
      {
        ref: 'notcontact',
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
        relations: [{ roles: ['legal_representative'] }],
      },
      {
        ref: 'irrelevant',
        first_name: 'Emmy',
        last_name: 'Noether',
        email: 'emmy@example.com',
        is_business_contact: true,
        relations: [{ roles: ['legal_representative'] }],
      },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const by = (first: string) => res.body.individuals.find((i: any) => i.first_name === first).id as string;
  return {
    caseId: res.body.id as string,
    companyId: res.body.companies[0].id as string,
    contact: by('Ada'),
    noEmail: by('Alan'),
    notContact: by('Grace'),
    irrelevant: by('Emmy'),
  };
}

/** The base of the service's links: VERICASE_PUBLIC_URL, else the listen address (every address here). */
async function serviceBase(): Promise<string> {
  const { config } = await getHarness();
  return config.publicUrl ?? `http://localhost:${config.port}`;
}

async function defaultPortal(api: Client) {
  const res = await api.get('/v1/client-portals');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data[0];
}

async function linksOf(caseId: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('client_portal_links')
    .selectAll()
    .where('case_id', '=', caseId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

async function caseEvents(workspaceId: string, caseId: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('events')
    .select(['type', 'sub_event', 'payload', 'actor_type'])
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    .orderBy('seq')
    .execute();
}

const tokenOf = (link: string) => {
  const m = /#token=(vcp_[A-Za-z0-9_-]{43})$/.exec(link);
  assert.ok(m, `a token in the fragment: ${link}`);
  return m[1];
};

/** Asserts a 400 whose details name `path` and whose message matches `reason`. */
function assertBadField(res: { status: number; body: any }, path: string, reason?: RegExp) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.ok(
    res.body.details?.some((d: any) => d.path === path),
    `details name ${path}: ${JSON.stringify(res.body)}`,
  );
  if (reason) assert.match(res.body.message, reason);
}

describe('client portals: list, read, update', () => {
  test('a workspace has one default portal, created on first read, in the list envelope', async () => {
    const api = await newWorkspace();
    // concurrent first reads agree on one portal (the upsert on the one-default index)
    const first = await Promise.all(Array.from({ length: 5 }, () => api.get('/v1/client-portals')));
    assert.equal(new Set(first.map((r) => r.body.data[0].id)).size, 1);
    const list = await api.get('/v1/client-portals');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(list.body.pagination, { page: 1, limit: 20, count: 1 });
    const p = list.body.data[0];
    assert.deepEqual(Object.keys(p).sort(), [
      'accent_color',
      'created_at',
      'default_language',
      'id',
      'is_default',
      'logo_file_id',
      'name',
      'status',
      'updated_at',
      'url',
      'wait_steps',
    ]);
    assert.equal(p.status, 'online');
    assert.equal(p.default_language, 'en');
    assert.equal(p.is_default, true);
    assert.equal(p.accent_color, null);
    assert.equal(p.logo_file_id, null);
    assert.deepEqual(p.wait_steps, []);
    assert.equal(p.url, `${await serviceBase()}/portal/`);
    // reading again creates nothing more; GET by id gives the same portal
    assert.equal((await api.get('/v1/client-portals')).body.pagination.count, 1);
    const one = await api.get(`/v1/client-portals/${p.id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, p);
    // filters of the reference
    assert.equal((await api.get('/v1/client-portals?status=offline')).body.pagination.count, 0);
    assert.equal((await api.get('/v1/client-portals?default_language=en')).body.pagination.count, 1);
    assertBadField(await api.get('/v1/client-portals?status=paused'), 'status');
  });

  test('PATCH changes each field given, and only those', async () => {
    const api = await newWorkspace();
    const p = await defaultPortal(api);
    const steps = [
      { key: 'review', title: 'We review your documents' },
      { key: 'final-check', title: 'Final check' },
    ];
    const res = await api.patch(`/v1/client-portals/${p.id}`, {
      name: 'Acme onboarding',
      status: 'offline',
      default_language: 'fr',
      accent_color: '#2F6FED',
      wait_steps: steps,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Acme onboarding');
    assert.equal(res.body.status, 'offline');
    assert.equal(res.body.default_language, 'fr');
    assert.equal(res.body.accent_color, '#2f6fed');
    assert.deepEqual(res.body.wait_steps, steps);
    assert.ok(res.body.updated_at >= p.updated_at);
    const again = await api.patch(`/v1/client-portals/${p.id}`, { status: 'online' });
    assert.equal(again.body.status, 'online');
    assert.equal(again.body.name, 'Acme onboarding');
    assert.deepEqual(again.body.wait_steps, steps);
    const cleared = await api.patch(`/v1/client-portals/${p.id}`, { accent_color: null, wait_steps: [] });
    assert.equal(cleared.body.accent_color, null);
    assert.deepEqual(cleared.body.wait_steps, []);
    const { ctx } = await getHarness();
    const row = await ctx.db
      .selectFrom('client_portals')
      .selectAll()
      .where('id', '=', p.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.name, 'Acme onboarding');
    assert.equal(row.default_language, 'fr');
    assert.equal(row.is_default, true);
  });

  test('the logo is an uploaded PNG, JPEG or WebP image; null removes it', async () => {
    const api = await newWorkspace();
    const p = await defaultPortal(api);
    const png = await uploadRef(api, makePng({ width: 32, height: 16 }));
    const set = await api.patch(`/v1/client-portals/${p.id}`, { logo_upload_ref: png });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.match(set.body.logo_file_id, /^[0-9a-f-]{36}$/);
    // attached: readable through the files API, never purged as an unused upload
    assert.equal((await api.get(`/v1/files/${set.body.logo_file_id}`)).status, 200);
    const pdf = await uploadRef(api, makePdf());
    assertBadField(
      await api.patch(`/v1/client-portals/${p.id}`, { logo_upload_ref: pdf }),
      'logo_upload_ref',
      /PNG, JPEG or WebP/,
    );
    assertBadField(
      await api.patch(`/v1/client-portals/${p.id}`, { logo_upload_ref: 'upl_nope' }),
      'logo_upload_ref',
      /does not match any upload/,
    );
    // the refused PDF left the logo as it was
    assert.equal((await api.get(`/v1/client-portals/${p.id}`)).body.logo_file_id, set.body.logo_file_id);
    const removed = await api.patch(`/v1/client-portals/${p.id}`, { logo_upload_ref: null });
    assert.equal(removed.body.logo_file_id, null);
  });

  test('bad values: 400 naming the field, nothing changes', async () => {
    const api = await newWorkspace();
    const p = await defaultPortal(api);
    const url = `/v1/client-portals/${p.id}`;
    assertBadField(await api.patch(url, { name: '' }), 'name');
    // the name heads the contact's page and a step's title is what they read while waiting: spaces
    // alone would show nothing there
    assertBadField(await api.patch(url, { name: '   ' }), 'name', /blank/);
    assertBadField(
      await api.patch(url, { wait_steps: [{ key: 'a', title: ' \t ' }] }),
      'wait_steps[0].title',
      /blank/,
    );
    assertBadField(await api.patch(url, { status: 'paused' }), 'status');
    assertBadField(await api.patch(url, { default_language: 'xx' }), 'default_language');
    assertBadField(await api.patch(url, { accent_color: 'red' }), 'accent_color');
    assertBadField(await api.patch(url, { accent_color: '#12345' }), 'accent_color');
    assertBadField(await api.patch(url, { wait_steps: [{ key: 'a b', title: 'x' }] }), 'wait_steps[0].key');
    assertBadField(await api.patch(url, { wait_steps: [{ key: 'a', title: '' }] }), 'wait_steps[0].title');
    assertBadField(await api.patch(url, { wait_steps: [{ key: 'a' }] }), 'wait_steps[0].title');
    assertBadField(
      await api.patch(url, {
        wait_steps: [
          { key: 'a', title: 'x' },
          { key: 'a', title: 'y' },
        ],
      }),
      'wait_steps[1].key',
      /used twice/,
    );
    const many = Array.from({ length: 21 }, (_, i) => ({ key: `s${i}`, title: `Step ${i}` }));
    assertBadField(await api.patch(url, { wait_steps: many }), 'wait_steps');
    // server-owned and unknown fields are refused
    assertBadField(await api.patch(url, { is_default: false }), 'is_default');
    assertBadField(await api.patch(url, { url: 'https://evil.example' }), 'url');
    assertBadField(await api.patch(url, { logo_file_id: p.id }), 'logo_file_id');
    assert.deepEqual((await api.get(url)).body, p);
  });

  test("another workspace's portal: 404 on read and update, and it stays as it was", async () => {
    const a = await newWorkspace();
    const b = await newWorkspace();
    const pb = await defaultPortal(b);
    assert.equal((await a.get(`/v1/client-portals/${pb.id}`)).status, 404);
    assert.equal((await a.patch(`/v1/client-portals/${pb.id}`, { status: 'offline' })).status, 404);
    assert.equal((await a.get('/v1/client-portals/00000000-0000-4000-8000-000000000000')).status, 404);
    assert.equal((await a.get('/v1/client-portals/not-a-uuid')).status, 400);
    assert.deepEqual((await b.get(`/v1/client-portals/${pb.id}`)).body, pb);
    const listA = (await a.get('/v1/client-portals')).body.data;
    assert.equal(listA.length, 1);
    assert.notEqual(listA[0].id, pb.id);
  });
});

describe('client portals: sharing a link', () => {
  test('201 with the contact and a link whose token is stored only as its SHA-256', async () => {
    const api = await newWorkspace();
    const p = await defaultPortal(api);
    const c = await portalCase(api);
    const t0 = Date.now();
    const res = await api.post(`/v1/cases/${c.caseId}/share-client-portal-link`, {
      business_contact_id: c.contact,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), [
      'business_contact',
      'case_id',
      'client_portal_id',
      'expires_at',
      'link',
    ]);
    assert.equal(res.body.case_id, c.caseId);
    assert.equal(res.body.client_portal_id, p.id);
    assert.deepEqual(res.body.business_contact, {
      id: c.contact,
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
    });
    assert.ok(res.body.link.startsWith(`${await serviceBase()}/portal/#token=vcp_`), res.body.link);
    const token = tokenOf(res.body.link);
    // default lifetime: 7 days
    const expires = Date.parse(res.body.expires_at);
    assert.ok(expires >= t0 + 168 * HOUR && expires <= Date.now() + 168 * HOUR, res.body.expires_at);

    const [row] = await linksOf(c.caseId);
    assert.equal(row.token_hash, createHash('sha256').update(token).digest('hex'));
    assert.equal(row.individual_id, c.contact);
    assert.equal(row.client_portal_id, p.id);
    assert.equal(row.check_id, null);
    assert.equal(row.revoked_at, null);
    assert.equal(new Date(row.expires_at).toISOString(), res.body.expires_at);
    // the token itself is stored nowhere: not in the link row, not in any event of the workspace
    const { ctx } = await getHarness();
    const secret = token.slice(4);
    assert.ok(!JSON.stringify(row).includes(secret));
    const events = await ctx.db
      .selectFrom('events')
      .select('payload')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.ok(!JSON.stringify(events).includes(secret));
    assert.equal((await findLiveLinkByToken(ctx.db, token))?.id, row.id);
    assert.equal(await findLiveLinkByToken(ctx.db, `${token}x`), undefined);

    // the case now names its portal
    const kase = (await api.get(`/v1/cases/${c.caseId}`)).body;
    assert.deepEqual(kase.client_portal, { id: p.id, name: p.name, type: 'KYB', wait_step_key: null });
  });

  test('each precondition is a 400 naming business_contact_id or client_portal_id and the reason', async () => {
    const api = await newWorkspace();
    const c = await portalCase(api);
    const other = await portalCase(api, 'Other case');
    const url = `/v1/cases/${c.caseId}/share-client-portal-link`;
    const field = 'business_contact_id';
    assertBadField(
      await api.post(url, { business_contact_id: other.contact }),
      field,
      /not an individual of this case/,
    );
    assertBadField(
      await api.post(url, { business_contact_id: '00000000-0000-4000-8000-000000000000' }),
      field,
      /not an individual of this case/,
    );
    assert.equal(
      (await api.post(`/v1/individuals/${c.irrelevant}/set-relevant`, { is_relevant: false })).status,
      200,
    );
    assertBadField(await api.post(url, { business_contact_id: c.irrelevant }), field, /not relevant/);
    assertBadField(await api.post(url, { business_contact_id: c.noEmail }), field, /no e-mail/);
    assertBadField(
      await api.post(url, { business_contact_id: c.notContact }),
      field,
      /not a business contact/,
    );
    // the portal offline
    const p = await defaultPortal(api);
    await api.patch(`/v1/client-portals/${p.id}`, { status: 'offline' });
    assertBadField(
      await api.post(url, { business_contact_id: c.contact, client_portal_id: p.id }),
      'client_portal_id',
      /offline/,
    );
    assertBadField(await api.post(url, { business_contact_id: c.contact }), 'client_portal_id', /offline/);
    await api.patch(`/v1/client-portals/${p.id}`, { status: 'online' });
    // malformed bodies
    assertBadField(await api.post(url, {}), field);
    assertBadField(await api.post(url, { business_contact_id: 'x' }), field);
    assertBadField(await api.post(url, { business_contact_id: c.contact, extra: 1 }), 'extra');
    // unknown portal or case: 404, the portal named as the body's field
    const noPortal = await api.post(url, {
      business_contact_id: c.contact,
      client_portal_id: '00000000-0000-4000-8000-000000000000',
    });
    assert.equal(noPortal.status, 404);
    assert.equal(noPortal.body.details[0].path, 'client_portal_id');
    assert.equal(
      (
        await api.post('/v1/cases/00000000-0000-4000-8000-000000000000/share-client-portal-link', {
          business_contact_id: c.contact,
        })
      ).status,
      404,
    );
    // none of the refusals issued a link or named a portal on the case
    assert.equal((await linksOf(c.caseId)).length, 0);
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.client_portal, null);
    // the case closed
    assert.equal((await api.post(`/v1/cases/${c.caseId}/reviews`, { status: 'closed' })).status, 201);
    const closed = await api.post(url, { business_contact_id: c.contact });
    assert.equal(closed.status, 400);
    assert.match(closed.body.message, /case is closed/);
    assert.equal(closed.body.details[0].path, 'id');
    assert.equal((await linksOf(c.caseId)).length, 0);
  });

  test('sharing again revokes the earlier link; closing the case revokes every link', async () => {
    const { ctx } = await getHarness();
    const api = await newWorkspace();
    const c = await portalCase(api);
    const url = `/v1/cases/${c.caseId}/share-client-portal-link`;
    const first = tokenOf((await api.post(url, { business_contact_id: c.contact })).body.link);
    const second = tokenOf((await api.post(url, { business_contact_id: c.contact })).body.link);
    assert.notEqual(first, second);
    const rows = await linksOf(c.caseId);
    assert.equal(rows.length, 2);
    assert.ok(rows[0].revoked_at, 'the first link is revoked');
    assert.equal(rows[1].revoked_at, null);
    assert.equal(await findLiveLinkByToken(ctx.db, first), undefined);
    assert.ok(await findLiveLinkByToken(ctx.db, second));
    // another case's link of the same workspace is untouched by this case closing
    const other = await portalCase(api, 'Other case');
    const otherToken = tokenOf(
      (
        await api.post(`/v1/cases/${other.caseId}/share-client-portal-link`, {
          business_contact_id: other.contact,
        })
      ).body.link,
    );
    // an approval leaves the links alive; the review that closes the case revokes them
    assert.equal((await api.post(`/v1/cases/${c.caseId}/reviews`, { status: 'approved' })).status, 201);
    assert.ok(await findLiveLinkByToken(ctx.db, second));
    const review = await api.post(`/v1/cases/${c.caseId}/reviews`, { status: 'closed' });
    assert.equal(review.status, 201, JSON.stringify(review.body));
    assert.ok((await linksOf(c.caseId)).every((r) => r.revoked_at));
    assert.equal(await findLiveLinkByToken(ctx.db, second), undefined);
    assert.ok(await findLiveLinkByToken(ctx.db, otherToken));
    // and deleting a case
    const third = await portalCase(api, 'Third case');
    const thirdToken = tokenOf(
      (
        await api.post(`/v1/cases/${third.caseId}/share-client-portal-link`, {
          business_contact_id: third.contact,
        })
      ).body.link,
    );
    assert.equal((await api.delete(`/v1/cases/${third.caseId}`)).status, 204);
    assert.equal(await findLiveLinkByToken(ctx.db, thirdToken), undefined);
  });

  test('expires_at follows VERICASE_PORTAL_LINK_TTL_HOURS; an expired link is not live; VERICASE_PUBLIC_URL is the base', async () => {
    assert.equal(loadConfig({}).portalLinkTtlHours, 168);
    assert.equal(loadConfig({ VERICASE_PORTAL_LINK_TTL_HOURS: '24' }).portalLinkTtlHours, 24);
    assert.throws(() => loadConfig({ VERICASE_PORTAL_LINK_TTL_HOURS: '0' }), /at least 1/);
    assert.throws(() => loadConfig({ VERICASE_PORTAL_LINK_TTL_HOURS: 'soon' }), /non-negative number/);

    const { ctx } = await getHarness();
    const api = await newWorkspace();
    const c = await portalCase(api);
    const saved = { ttl: ctx.config.portalLinkTtlHours, url: ctx.config.publicUrl };
    ctx.config.portalLinkTtlHours = 2;
    ctx.config.publicUrl = 'https://kyc.example.com';
    try {
      const t0 = Date.now();
      const res = await api.post(`/v1/cases/${c.caseId}/share-client-portal-link`, {
        business_contact_id: c.contact,
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const expires = Date.parse(res.body.expires_at);
      assert.ok(expires >= t0 + 2 * HOUR && expires <= Date.now() + 2 * HOUR, res.body.expires_at);
      assert.ok(res.body.link.startsWith('https://kyc.example.com/portal/#token=vcp_'));
      assert.equal((await api.get('/v1/client-portals')).body.data[0].url, 'https://kyc.example.com/portal/');
      const token = tokenOf(res.body.link);
      assert.ok(await findLiveLinkByToken(ctx.db, token));
      await ctx.db
        .updateTable('client_portal_links')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('case_id', '=', c.caseId)
        .execute();
      assert.equal(await findLiveLinkByToken(ctx.db, token), undefined);
    } finally {
      ctx.config.portalLinkTtlHours = saved.ttl;
      ctx.config.publicUrl = saved.url;
    }
  });
});

describe('client portals: contact_has_actions and wait steps', () => {
  let receiver: Receiver;
  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => receiver.stop());

  /** A document check of the case's company waiting for its files (in_progress). */
  async function awaitingDocument(api: Client, companyId: string) {
    const res = await api.post('/v1/checks/document', {
      company_id: companyId,
      settings: { document_type_key: 'registration_certificate' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.status, 'in_progress');
    return res.body.id as string;
  }

  async function addFiles(api: Client, checkId: string) {
    const ref = await uploadRef(
      api,
      makePng({ width: 6, height: 4, text: { sandbox_outcome: 'undecided' } }),
    );
    const res = await api.post(`/v1/checks/document/${checkId}/add_files`, { files: [{ upload_ref: ref }] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.status, 'processing');
  }

  const subEvents = async (api: Client, caseId: string, sub: string) =>
    (await caseEvents(api.workspaceId, caseId)).filter((e) => e.sub_event === sub);

  test('contact_has_actions turns true with a check waiting for data, false when it gets its files by API', async () => {
    const api = await newWorkspace();
    const c = await portalCase(api);
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, false);
    const checkId = await awaitingDocument(api, c.companyId);
    const waiting = (await api.get(`/v1/cases/${c.caseId}`)).body;
    assert.equal(waiting.contact_has_actions, true);
    let events = await subEvents(api, c.caseId, 'Case.ContactHasActionsUpdated');
    assert.equal(events.length, 1);
    assert.equal(events[0].type, 'Case.Updated');
    assert.equal((events[0].payload as any).case.contact_has_actions, true);
    assert.equal(events[0].actor_type, 'system');
    await addFiles(api, checkId);
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, false);
    events = await subEvents(api, c.caseId, 'Case.ContactHasActionsUpdated');
    assert.equal(events.length, 2);
    assert.equal((events[1].payload as any).case.contact_has_actions, false);
    // no portal shared: no wait step
    assert.equal(
      (await caseEvents(api.workspaceId, c.caseId)).filter(
        (e) => e.type === 'Case.ClientPortalWaitStepTriggered',
      ).length,
      0,
    );
    // a second check waiting while the first does not change the flag again on its own files
    const a = await awaitingDocument(api, c.companyId);
    const b = await awaitingDocument(api, c.companyId);
    assert.equal((await subEvents(api, c.caseId, 'Case.ContactHasActionsUpdated')).length, 3);
    await addFiles(api, a);
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, true);
    await addFiles(api, b);
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, false);
    assert.equal((await subEvents(api, c.caseId, 'Case.ContactHasActionsUpdated')).length, 4);
    // a not relevant entity's waiting check does not count
    const ind = await api.post('/v1/checks/document', {
      individual_id: c.irrelevant,
      settings: { document_type_key: 'proof_of_address' },
    });
    assert.equal(ind.status, 201, JSON.stringify(ind.body));
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, true);
    await api.post(`/v1/individuals/${c.irrelevant}/set-relevant`, { is_relevant: false });
    // (the flag follows at the case's next check change: marking relevance recomputes nothing)
    assert.equal((await api.post('/v1/checks/aml', { company_id: c.companyId })).status, 201);
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, false);
  });

  test('a rejected document check the portal offers again counts as waiting for the contact, until new files arrive', async () => {
    const api = await newWorkspace();
    const c = await portalCase(api);
    const checkId = await awaitingDocument(api, c.companyId);
    await addFiles(api, checkId);
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, false);
    const rejected = await api.patch(`/v1/checks/document/${checkId}/review`, {
      action: 'reject',
      comment: 'blurred',
    });
    assert.equal(rejected.status, 200, JSON.stringify(rejected.body));
    const kase = (await api.get(`/v1/cases/${c.caseId}`)).body;
    // the portal shows it as "send again" (state retry): the contact has that to do
    assert.equal(kase.contact_has_actions, true);
    assert.ok(kase.flags.includes('for_recollection'), JSON.stringify(kase.flags));
    const events = await subEvents(api, c.caseId, 'Case.ContactHasActionsUpdated');
    assert.equal((events[events.length - 1].payload as any).case.contact_has_actions, true);
    await addFiles(api, checkId);
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, false);
  });

  test('a closed case awaits nothing from its contact; reopening or deciding it again counts its waiting checks', async () => {
    const api = await newWorkspace();
    const c = await portalCase(api);
    await awaitingDocument(api, c.companyId);
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, true);
    const closed = await api.post(`/v1/cases/${c.caseId}/reviews`, { status: 'closed' });
    assert.equal(closed.status, 201, JSON.stringify(closed.body));
    const kase = (await api.get(`/v1/cases/${c.caseId}`)).body;
    assert.equal(kase.status, 'closed');
    assert.equal(kase.contact_has_actions, false);
    let events = await subEvents(api, c.caseId, 'Case.ContactHasActionsUpdated');
    assert.equal(events.length, 2);
    assert.equal((events[1].payload as any).case.contact_has_actions, false);
    assert.equal((events[1].payload as any).case.status, 'closed');
    assert.equal(events[1].actor_type, 'system');
    // a check change on the closed case does not bring the flag back, nor trigger a wait step
    await awaitingDocument(api, c.companyId);
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, false);
    assert.equal((await subEvents(api, c.caseId, 'Case.ContactHasActionsUpdated')).length, 2);
    // reopened: its two waiting checks count again
    const reopened = await api.patch(`/v1/cases/${c.caseId}`, { status: 'open' });
    assert.equal(reopened.status, 200, JSON.stringify(reopened.body));
    assert.equal(reopened.body.contact_has_actions, true);
    events = await subEvents(api, c.caseId, 'Case.ContactHasActionsUpdated');
    assert.equal(events.length, 3);
    assert.equal((events[2].payload as any).case.contact_has_actions, true);
    assert.equal(events[2].actor_type, 'system');
    // closed again, then decided by a review: the same
    await api.post(`/v1/cases/${c.caseId}/reviews`, { status: 'closed' });
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, false);
    const decided = await api.post(`/v1/cases/${c.caseId}/reviews`, { status: 'rejected' });
    assert.equal(decided.status, 201, JSON.stringify(decided.body));
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, true);
    assert.equal((await subEvents(api, c.caseId, 'Case.ContactHasActionsUpdated')).length, 5);
    assert.equal(
      (await caseEvents(api.workspaceId, c.caseId)).filter(
        (e) => e.type === 'Case.ClientPortalWaitStepTriggered',
      ).length,
      0,
    );
  });

  test("a check only its own person can do (id_verification) counts for a business contact's own checks only", async () => {
    const api = await newWorkspace();
    const c = await portalCase(api);
    // Grace is no business contact: no contact's portal shows her verification
    const grace = await api.post('/v1/checks/id_verification', { individual_id: c.notContact });
    assert.equal(grace.status, 201, JSON.stringify(grace.body));
    assert.equal(grace.body.status, 'in_progress');
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.contact_has_actions, false);
    const link = await api.post(`/v1/cases/${c.caseId}/share-client-portal-link`, {
      business_contact_id: c.contact,
    });
    assert.equal(link.status, 201, JSON.stringify(link.body));
    // Ada's own verification is hers to do in her portal
    const before = (await api.get(`/v1/cases/${c.caseId}`)).body.updated_at;
    const ada = await api.post('/v1/checks/id_verification', { individual_id: c.contact });
    assert.equal(ada.status, 201, JSON.stringify(ada.body));
    const after = (await api.get(`/v1/cases/${c.caseId}`)).body;
    assert.equal(after.contact_has_actions, true);
    // a change of the case's own fields moves updated_at (receivers order payloads by it)
    assert.ok(after.updated_at > before, `${after.updated_at} > ${before}`);
  });

  test('wait steps: triggered once when the contact runs out of actions, completed by the operator', async () => {
    const api = await newWorkspace();
    const hook = await api.post('/v1/webhooks', {
      name: 'portal hook',
      url: receiver.url(`/${api.workspaceId}`),
      events: ['Case.ClientPortalWaitStepTriggered'],
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const p = await defaultPortal(api);
    await api.patch(`/v1/client-portals/${p.id}`, {
      name: 'Acme portal',
      wait_steps: [
        { key: 'review', title: 'We review your documents' },
        { key: 'final', title: 'Final approval' },
      ],
    });
    const c = await portalCase(api);
    const complete = (body: Record<string, unknown> = {}) =>
      api.post(`/v1/cases/${c.caseId}/complete-client-portal-wait-step`, body);

    // no link shared yet: nothing to complete
    const none = await complete();
    assert.equal(none.status, 400);
    assert.match(none.body.message, /No client portal link was shared/);

    assert.equal(
      (await api.post(`/v1/cases/${c.caseId}/share-client-portal-link`, { business_contact_id: c.contact }))
        .status,
      201,
    );
    const checkId = await awaitingDocument(api, c.companyId);
    // nothing pending: completes nothing (the reference's "all pending steps")
    const nonePending = await complete();
    assert.equal(nonePending.status, 200, JSON.stringify(nonePending.body));
    assert.deepEqual(nonePending.body, { completed_wait_step_keys: [] });
    await addFiles(api, checkId);

    const triggered = (await caseEvents(api.workspaceId, c.caseId)).filter(
      (e) => e.type === 'Case.ClientPortalWaitStepTriggered',
    );
    assert.equal(triggered.length, 1);
    assert.deepEqual((triggered[0].payload as any).client_portal, {
      id: p.id,
      name: 'Acme portal',
      wait_step: { key: 'review', title: 'We review your documents' },
    });
    let kase = (await api.get(`/v1/cases/${c.caseId}`)).body;
    assert.deepEqual(kase.client_portal, {
      id: p.id,
      name: 'Acme portal',
      type: 'KYB',
      wait_step_key: 'review',
    });

    // the webhook carries the detailed case with its portal, and the context names it
    await receiver.waitFor(() => receiver.deliveries(`/${api.workspaceId}`).length >= 1);
    const delivered = receiver.deliveries(`/${api.workspaceId}`)[0].json;
    assert.equal(delivered.event, 'Case.ClientPortalWaitStepTriggered');
    assert.deepEqual(delivered.case.client_portal, {
      id: p.id,
      name: 'Acme portal',
      type: 'KYB',
      wait_step_key: 'review',
    });
    assert.deepEqual(delivered.context.case.client_portal, { id: p.id, name: 'Acme portal', type: 'KYB' });
    assert.equal(delivered.case.companies.length, 1);

    // unknown keys and other portals are refused
    assertBadField(await complete({ wait_step_key: 'nope' }), 'wait_step_key', /not a wait step/);
    assert.equal((await complete({ client_portal_id: '00000000-0000-4000-8000-000000000000' })).status, 404);
    assertBadField(await complete({ extra: true }), 'extra');

    const done = await complete();
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(done.body, { completed_wait_step_keys: ['review'] });
    kase = (await api.get(`/v1/cases/${c.caseId}`)).body;
    assert.equal(kase.client_portal.wait_step_key, null);
    // nothing pending: completes nothing (the reference's "all pending steps")
    const afterDone = await complete();
    assert.equal(afterDone.status, 200, JSON.stringify(afterDone.body));
    assert.deepEqual(afterDone.body, { completed_wait_step_keys: [] });
    assertBadField(await complete({ wait_step_key: 'review' }), 'wait_step_key', /already completed/);

    // the operator asks for more; when the contact supplies it, the next step triggers
    const more = await awaitingDocument(api, c.companyId);
    await addFiles(api, more);
    kase = (await api.get(`/v1/cases/${c.caseId}`)).body;
    assert.equal(kase.client_portal.wait_step_key, 'final');
    const named = await complete({ client_portal_id: p.id, wait_step_key: 'final' });
    assert.deepEqual(named.body, { completed_wait_step_keys: ['final'] });

    // every step completed: running out of actions again triggers nothing
    const last = await awaitingDocument(api, c.companyId);
    await addFiles(api, last);
    const all = (await caseEvents(api.workspaceId, c.caseId)).filter(
      (e) => e.type === 'Case.ClientPortalWaitStepTriggered',
    );
    assert.equal(all.length, 2);
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.client_portal.wait_step_key, null);
    const { ctx } = await getHarness();
    const row = await ctx.db
      .selectFrom('cases')
      .select(['completed_wait_step_keys', 'client_portal_wait_step_key'])
      .where('id', '=', c.caseId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row.completed_wait_step_keys, ['review', 'final']);
  });

  test('a step can be completed before the contact reaches it, so it never waits on it', async () => {
    const api = await newWorkspace();
    const p = await defaultPortal(api);
    await api.patch(`/v1/client-portals/${p.id}`, { wait_steps: [{ key: 'kyc', title: 'Checks' }] });
    const c = await portalCase(api);
    await api.post(`/v1/cases/${c.caseId}/share-client-portal-link`, { business_contact_id: c.contact });
    const early = await api.post(`/v1/cases/${c.caseId}/complete-client-portal-wait-step`, {
      wait_step_key: 'kyc',
    });
    assert.deepEqual(early.body, { completed_wait_step_keys: ['kyc'] });
    const checkId = await awaitingDocument(api, c.companyId);
    await addFiles(api, checkId);
    assert.equal(
      (await caseEvents(api.workspaceId, c.caseId)).filter(
        (e) => e.type === 'Case.ClientPortalWaitStepTriggered',
      ).length,
      0,
    );
    assert.equal((await api.get(`/v1/cases/${c.caseId}`)).body.client_portal.wait_step_key, null);
  });
});
