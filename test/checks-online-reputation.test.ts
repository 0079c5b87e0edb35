import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ONLINE_REPUTATION_TRANSITIONS } from '../src/checks/types/online_reputation/transitions.ts';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';

async function caseWithCompany(api: Client, company: Record<string, unknown> = {}) {
  const res = await api.post('/v1/cases', {
    name: 'Reputation case',
    companies: [
      {
        name: 'Acme SAS',
        commercial_name: 'Acme',
        country: 'FR',
        registration_number: '552100554',
        website_url: 'https://acme.example',
        ...company,
      },
    ],
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

async function checkEvents(workspaceId: string) {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select(['type', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .where('type', 'like', 'Check.%')
    .orderBy('seq')
    .execute();
  return rows;
}

async function settle(api: Client, id: string) {
  return eventually(async () => {
    const r = await api.get(`/v1/checks/online_reputation/${id}`);
    return r.body.status !== 'processing' ? r.body : null;
  });
}

const FORBIDDEN_KEYS = ['risk', 'settings', 'vendor', 'reading', 'internal'];

function assertNoInternals(value: unknown, where: string) {
  const seen = JSON.stringify(value);
  for (const k of FORBIDDEN_KEYS) assert.ok(!seen.includes(`"${k}"`), `${where} exposes ${k}: ${seen}`);
}

describe('online_reputation check', () => {
  test('the transition table holds the spec rows', () => {
    assert.deepEqual(
      ONLINE_REPUTATION_TRANSITIONS.map((t) => [t.from, t.trigger, t.to]),
      [
        [null, 'create', 'processing'],
        ['processing', 'analysis_ends', 'approved'],
        ['processing', 'analysis_ends', 'need_review'],
      ],
    );
  });

  test('create → processing with an empty report and the company; data exposes no risk, settings or vendor', async () => {
    const api = await newWorkspace();
    const { companyId, caseId } = await caseWithCompany(api);
    const res = await api.post('/v1/checks/online_reputation', { company_id: companyId });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const c = res.body;
    assert.equal(c.type, 'online_reputation');
    assert.equal(c.status, 'processing');
    assert.equal(c.is_internal, true);
    assert.equal(c.subtype, null);
    assert.equal(c.company_id, companyId);
    assert.equal(c.individual_id, null);
    assert.deepEqual(c.data, {
      result: null,
      review: { comment: null, reviewed_at: null, reviewer_type: null, user: null },
      information: {
        report: null,
        summary: null,
        sources: [],
        company: {
          name: 'Acme SAS',
          commercial_name: 'Acme',
          country: 'FR',
          registration_number: '552100554',
          website_url: 'https://acme.example',
        },
      },
    });
    // stored internals exist, but only in the internal column
    const { ctx } = await getHarness();
    const row = await ctx.db
      .selectFrom('checks')
      .selectAll()
      .where('id', '=', c.id)
      .executeTakeFirstOrThrow();
    assert.equal((row.internal as any).settings.vendor, 'online_reputation_provider_1');
    assert.equal((row.internal as any).reading, 'pending');
    const kase = (await api.get(`/v1/cases/${caseId}`)).body;
    assert.equal(kase.companies[0].checks.length, 1);
    assert.equal('data' in kase.companies[0].checks[0], false);
    const done = await settle(api, c.id);
    assert.equal(done.status, 'approved');
    assertNoInternals(done.data, 'retrieved check');
    for (const e of await checkEvents(api.workspaceId))
      assertNoInternals((e.payload as any).check.data, e.type);
  });

  const rows: [string, string, string | null, string][] = [
    ['Acme SAS', 'approved', 'approved', 'low'],
    ['Moderate Risk Trading Ltd', 'approved', 'approved', 'moderate'],
    ['Apex HIGH RISK Finance', 'need_review', null, 'high'],
    ['Prohibited Gaming Ltd', 'need_review', null, 'prohibited'],
    ['Inconclusive Holdings', 'need_review', null, 'none'],
  ];
  for (const [name, status, result, reading] of rows) {
    test(`sandbox: company "${name}" → ${status} (${reading})`, async () => {
      const api = await newWorkspace();
      const { companyId, caseId } = await caseWithCompany(api, { name });
      const created = await api.post('/v1/checks/online_reputation', { company_id: companyId });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.status, 'processing');
      const done = await settle(api, created.body.id);
      assert.equal(done.status, status);
      assert.equal(done.data.result, result);
      assert.equal(done.data.review.reviewer_type, status === 'approved' ? 'system' : null);
      // the type has no settings: an automatic approval names no automatic_approval setting
      assert.equal(
        done.data.review.comment,
        status === 'approved'
          ? 'Approved automatically: the online reputation analysis found a low or moderate risk'
          : reading === 'none'
            ? 'Needs a review: the online reputation analysis could not rate the risk'
            : `Needs a review: the online reputation analysis rated the risk ${reading}`,
      );
      const info = done.data.information;
      assert.equal(typeof info.report, 'string');
      assert.ok(info.report.includes(name), info.report);
      assert.equal(typeof info.summary, 'string');
      assert.equal(info.company.name, name);
      if (reading === 'none') {
        assert.deepEqual(info.sources, []);
        assert.match(info.summary, /No reading/);
      } else {
        assert.ok(info.sources.length >= 3);
        for (const s of info.sources) assert.deepEqual(Object.keys(s).sort(), ['title', 'url']);
        assert.ok(info.sources.some((s: any) => s.url === 'https://acme.example'));
        assert.match(info.report, new RegExp(`Reputation risk: ${reading.toUpperCase()}`));
      }
      assertNoInternals(done.data, 'check');
      const { ctx } = await getHarness();
      const row = await ctx.db
        .selectFrom('checks')
        .select('internal')
        .where('id', '=', done.id)
        .executeTakeFirstOrThrow();
      assert.equal((row.internal as any).risk, reading === 'none' ? null : reading);
      const events = (await checkEvents(api.workspaceId)).map((e) => e.type);
      assert.deepEqual(events, [
        'Check.Started',
        status === 'approved' ? 'Check.Approved' : 'Check.ReviewNeeded',
      ]);
      const kase = (await api.get(`/v1/cases/${caseId}`)).body;
      assert.equal(kase.reviewer_has_actions, status === 'need_review');
    });
  }

  test('the report is deterministic for the same company data', async () => {
    const api = await newWorkspace();
    const a = await caseWithCompany(api);
    const b = await caseWithCompany(api);
    const ca = await api.post('/v1/checks/online_reputation', { company_id: a.companyId });
    const cb = await api.post('/v1/checks/online_reputation', { company_id: b.companyId });
    const [da, db] = [await settle(api, ca.body.id), await settle(api, cb.body.id)];
    assert.equal(da.data.information.report, db.data.information.report);
    assert.deepEqual(da.data.information.sources, db.data.information.sources);
  });

  test('a bare-domain website is linked as an absolute https address; the company keeps it as written', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithCompany(api, {
      name: 'Plain Name Co',
      website_url: 'plain.example.com',
    });
    const created = await api.post('/v1/checks/online_reputation', { company_id: companyId });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const done = await settle(api, created.body.id);
    const urls = done.data.information.sources.map((s: any) => s.url);
    assert.equal(urls[0], 'https://plain.example.com');
    for (const u of urls) assert.match(u, /^https:\/\//);
    assert.equal(done.data.information.company.website_url, 'plain.example.com');
    assert.equal((await api.get(`/v1/companies/${companyId}`)).body.website_url, 'plain.example.com');
  });

  test('a check still being analysed is not reviewed: 400 naming status (its report would be dropped)', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithCompany(api, { name: 'Quick Decision Ltd' });
    const created = await api.post('/v1/checks/online_reputation', { company_id: companyId });
    const settled = await settle(api, created.body.id);
    // as it is between its creation and the analysis's end (the sandbox's delay)
    const { ctx } = await getHarness();
    await ctx.db.updateTable('checks').set({ status: 'processing' }).where('id', '=', settled.id).execute();
    const early = await api.patch(`/v1/checks/online_reputation/${settled.id}/review`, { action: 'approve' });
    assert.equal(early.status, 400, JSON.stringify(early.body));
    assert.equal(early.body.details[0].path, 'status');
    assert.match(early.body.message, /still being analysed/);
    assert.equal((await api.get(`/v1/checks/online_reputation/${settled.id}`)).body.status, 'processing');
  });

  test('a need_review check is decided by an API review', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithCompany(api, { name: 'High Risk Ventures' });
    const created = await api.post('/v1/checks/online_reputation', { company_id: companyId });
    await settle(api, created.body.id);
    const res = await api.patch(`/v1/checks/online_reputation/${created.body.id}/review`, {
      action: 'approve',
      comment: 'Allegations reviewed and cleared',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'approved');
    assert.equal(res.body.data.result, 'approved');
    assert.equal(res.body.data.review.reviewer_type, 'api');
    assert.ok(res.body.data.information.report);
  });

  test('companies only: individual_id, a settings object or no company_id → 400; nothing created', async () => {
    const api = await newWorkspace();
    const { individualId, companyId } = await caseWithCompany(api);
    const asPerson = await api.post('/v1/checks/online_reputation', { individual_id: individualId });
    assert.equal(asPerson.status, 400);
    assert.ok(
      asPerson.body.details.some((d: any) => d.path === 'individual_id'),
      JSON.stringify(asPerson.body),
    );
    const both = await api.post('/v1/checks/online_reputation', {
      company_id: companyId,
      individual_id: individualId,
    });
    assert.equal(both.status, 400);
    const withSettings = await api.post('/v1/checks/online_reputation', {
      company_id: companyId,
      settings: {},
    });
    assert.equal(withSettings.status, 400);
    assert.ok(withSettings.body.details.some((d: any) => d.path === 'settings'));
    // nothing to set in the workspace either (docs/sandbox.md): one vendor
    const wsVendor = await api.patch('/v1/workspace/settings', {
      checks: { online_reputation: { vendor: 'online_reputation_provider_1' } },
    });
    assert.equal(wsVendor.status, 400);
    assert.deepEqual(
      wsVendor.body.details.map((d: any) => d.path),
      ['checks.online_reputation.vendor'],
    );
    const none = await api.post('/v1/checks/online_reputation', {});
    assert.equal(none.status, 400);
    assert.ok(none.body.details.some((d: any) => d.path === 'company_id'));
    const badId = await api.post('/v1/checks/online_reputation', { company_id: 'nope' });
    assert.equal(badId.status, 400);
    const { ctx } = await getHarness();
    const n = await ctx.db
      .selectFrom('checks')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('workspace_id', '=', api.workspaceId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(n.n), 0);
  });

  test("another workspace's company → 404; its check → 404", async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { companyId } = await caseWithCompany(api);
    const res = await other.post('/v1/checks/online_reputation', { company_id: companyId });
    assert.equal(res.status, 404);
    const mine = await api.post('/v1/checks/online_reputation', { company_id: companyId });
    assert.equal((await other.get(`/v1/checks/online_reputation/${mine.body.id}`)).status, 404);
    await settle(api, mine.body.id);
  });
});
