import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { expireDueChecks } from '../src/checks/engine/expire-checks.ts';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

async function caseWithPerson(api: Client, person: Record<string, unknown> = {}) {
  const res = await api.post('/v1/cases', {
    name: 'eKYC case',
    companies: [{ name: 'Main', country: 'FR' }],
    individuals: [
      {
        first_name: 'Marie',
        last_name: 'Curie',
        birth_date: '1967-11-07',
        email: 'marie@example.fr',
        phone_number: '+33612345678',
        address: { country: 'FR', city: 'Paris' },
        relations: [{ roles: ['legal_representative'] }],
        ...person,
      },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return {
    caseId: res.body.id as string,
    individualId: res.body.individuals[0].id as string,
    companyId: res.body.companies[0].id as string,
  };
}

async function eventTypes(workspaceId: string) {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select(['type', 'sub_event', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .execute();
  return rows;
}

describe('ekyc check (synchronous)', () => {
  const rows: [string, Record<string, boolean>, string, string | null][] = [
    ['Curie', {}, 'approved', 'approved'],
    ['Curie', { automatic_approval: false }, 'need_review', null],
    ['Inconsistent', {}, 'rejected', 'rejected'],
    ['Inconsistent', { automatic_rejection: false }, 'need_review', null],
    ['Inconclusive', {}, 'need_review', null],
    ['Inconclusive', { automatic_approval: true, automatic_rejection: true }, 'need_review', null],
  ];
  for (const [lastName, settings, status, result] of rows) {
    test(`last name ${lastName} with ${JSON.stringify(settings)} → ${status}`, async () => {
      const api = await newWorkspace();
      const { individualId, caseId } = await caseWithPerson(api, { last_name: lastName });
      const res = await api.post('/v1/checks/ekyc', { individual_id: individualId, settings });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.status, status);
      assert.equal(res.body.type, 'ekyc');
      assert.equal(res.body.is_internal, true);
      assert.equal(res.body.subtype, null);
      assert.equal(res.body.individual_id, individualId);
      assert.equal(res.body.data.result, result);
      assert.equal(res.body.data.settings.vendor, 'ekyc_provider_1');
      assert.equal(res.body.data.settings.automatic_approval, settings.automatic_approval ?? true);
      assert.equal(res.body.data.vendor.country, 'FR');
      assert.ok(res.body.data.ai.interpretation);
      const events = (await eventTypes(api.workspaceId))
        .map((e) => e.type)
        .filter((t) => t.startsWith('Check.'));
      const expected = {
        approved: 'Check.Approved',
        rejected: 'Check.Rejected',
        need_review: 'Check.ReviewNeeded',
      }[status];
      assert.deepEqual(events, ['Check.Started', expected]);
      const c = (await api.get(`/v1/cases/${caseId}`)).body;
      assert.equal(c.reviewer_has_actions, status === 'need_review');
      assert.equal(c.individuals[0].checks.length, 1);
      assert.equal(c.individuals[0].checks[0].status, status);
      assert.equal('data' in c.individuals[0].checks[0], false);
    });
  }

  test('fraud signals are computed from e-mail and phone', async () => {
    const api = await newWorkspace();
    const { individualId } = await caseWithPerson(api, {
      email: 'x12345678@mailinator.com',
      phone_number: '+14155550100',
    });
    const res = await api.post('/v1/checks/ekyc', { individual_id: individualId });
    const fs = res.body.data.fraud_signals;
    assert.equal(fs.email_validation.address_valid, true);
    const codes = fs.trust.triggered_rules.map((r: any) => r.code);
    assert.ok(codes.includes('EMAIL_DISPOSABLE'), codes);
    assert.ok(codes.includes('EMAIL_MANY_DIGITS'), codes);
    assert.ok(fs.fraud_score.score >= 60);
    assert.equal(fs.mobile_validation.current_network.country, 'US');
    assert.ok(codes.includes('PHONE_COUNTRY_MISMATCH'), codes);
    // a Réunion mobile with a French address: the territory's own numbering plan, not a mismatch
    const reunion = await caseWithPerson(api, { phone_number: '+262692123456' });
    const re = (await api.post('/v1/checks/ekyc', { individual_id: reunion.individualId })).body.data
      .fraud_signals;
    assert.equal(re.mobile_validation.number_valid, true);
    assert.equal(re.mobile_validation.current_network.country, 'RE');
    assert.ok(
      !re.trust.triggered_rules.some((r: any) => r.code === 'PHONE_COUNTRY_MISMATCH'),
      JSON.stringify(re),
    );
    const clean = await caseWithPerson(api);
    const ok = (await api.post('/v1/checks/ekyc', { individual_id: clean.individualId })).body.data
      .fraud_signals;
    assert.equal(ok.mobile_validation.number_valid, true);
    assert.equal(ok.mobile_validation.line_type, 'mobile');
    assert.equal(ok.fraud_score.band, 'low');
    const none = await caseWithPerson(api, { email: null, phone_number: null });
    assert.equal(
      (await api.post('/v1/checks/ekyc', { individual_id: none.individualId })).body.data.fraud_signals,
      null,
    );
  });

  test('fraud signals: each rule and its weight (docs/sandbox.md); fraud score and trust score each carry their own band', async () => {
    const api = await newWorkspace();
    const rows: [Record<string, unknown>, string[], number][] = [
      [{ email: 'info@example.com', phone_number: null }, ['email_role_address'], 10],
      [{ email: 'jean.dupont@gmail.com', phone_number: null }, ['email_free_provider'], 5],
      [{ email: 'jean12345@example.com', phone_number: null }, ['email_many_digits'], 10],
      // the input format (the HTML standard's address) already refuses most malformed addresses, a
      // domain label over 63 characters among them; a local part over 64 characters and an IP
      // address without its brackets pass it
      [{ email: `${'a'.repeat(65)}@example.fr`, phone_number: null }, ['email_invalid'], 40],
      [{ email: 'jean@192.168.0.1', phone_number: null }, ['email_invalid'], 40],
      // well formed, but on a top-level domain reserved by RFC 2606 / 6761: no mail can reach it
      [{ email: 'jean.dupont@maison-lumiere.example', phone_number: null }, ['email_invalid'], 40],
      [{ email: 'jean@mail.invalid', phone_number: null }, ['email_invalid'], 40],
      [{ email: 'jean@acme.test', phone_number: null }, ['email_invalid'], 40],
      [{ email: 'jean@mail.localhost', phone_number: null }, ['email_invalid'], 40],
      [{ email: 'info@acme.test', phone_number: null }, ['email_invalid', 'email_role_address'], 50],
      // only the top-level domain counts: these are ordinary domains
      [{ email: 'jean@test.fr', phone_number: null }, [], 0],
      [{ email: 'jean@example.com', phone_number: null }, [], 0],
      [{ email: null, phone_number: '+331234567' }, ['phone_invalid'], 30],
      [{ email: null, phone_number: '+33949123456' }, ['phone_high_risk_line'], 20],
      [{ email: null, phone_number: '+4915112345678' }, ['phone_country_mismatch'], 15],
      [
        { email: 'admin@mailinator.com', phone_number: '+331234567' },
        ['email_disposable', 'email_role_address', 'phone_invalid'],
        90,
      ],
    ];
    const band = (s: number) => (s < 25 ? 'low' : s < 50 ? 'medium' : s < 75 ? 'high' : 'very_high');
    for (const [person, labels, score] of rows) {
      const { individualId } = await caseWithPerson(api, person);
      const res = await api.post('/v1/checks/ekyc', { individual_id: individualId });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const fs = res.body.data.fraud_signals;
      const seen = JSON.stringify({ person, fs });
      assert.deepEqual(fs.fraud_score.labels, labels, seen);
      assert.equal(fs.fraud_score.score, score, seen);
      assert.equal(fs.fraud_score.band, band(score), seen);
      assert.equal(fs.trust.score, 100 - score, seen);
      // a trust score of 10 is a low trust, not a "very_high" one
      assert.equal(fs.trust.band, band(100 - score), seen);
    }
    // EMAIL_INVALID says which it is, and the address is reported undeliverable
    for (const [email, description] of [
      ['jean@192.168.0.1', 'The e-mail address is not well formed'],
      ['jean@acme.test', 'The e-mail domain is reserved (.test) and can never receive mail'],
    ] as const) {
      const p = await caseWithPerson(api, { email, phone_number: null });
      const res = await api.post('/v1/checks/ekyc', { individual_id: p.individualId });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      const fs = res.body.data.fraud_signals;
      assert.deepEqual(fs.trust.triggered_rules, [{ code: 'EMAIL_INVALID', description }]);
      assert.deepEqual(fs.email_validation, { address_valid: false, bounce_risk: 'high' });
      assert.equal(fs.email_verification.risk_score, 40);
      assert.equal(fs.email_verification.risk_band, 'medium');
    }
    // domain_country: the country of a two-letter top-level domain, .uk as GB; .eu is no country
    for (const [email, country] of [
      ['jean@example.de', 'DE'],
      ['jean@example.co.uk', 'GB'],
      ['jean@example.eu', null],
      ['jean@example.com', null],
    ] as const) {
      const p = await caseWithPerson(api, { email, phone_number: null });
      const ev = (await api.post('/v1/checks/ekyc', { individual_id: p.individualId })).body.data
        .fraud_signals.email_verification;
      assert.equal(ev.domain_country, country, email);
    }
    // the rule's description says what it tests: jean12345 has 5 digits, it is not "mostly digits"
    const digits = await caseWithPerson(api, { email: 'jean12345@example.com', phone_number: null });
    const rules = (await api.post('/v1/checks/ekyc', { individual_id: digits.individualId })).body.data
      .fraud_signals.trust.triggered_rules;
    assert.deepEqual(rules, [
      { code: 'EMAIL_MANY_DIGITS', description: 'The e-mail local part has 5 digits or more' },
    ]);
  });

  test('preconditions: each missing attribute, unsupported country, no profile → 400 naming it; nothing created', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    for (const [patch, field] of [
      [{ birth_date: null }, 'birth_date'],
      [{ address: {} }, 'address.country'],
      [{ address: { country: 'CN' } }, 'address.country'],
    ] as const) {
      const { individualId } = await caseWithPerson(api, patch);
      const res = await api.post('/v1/checks/ekyc', { individual_id: individualId });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.details[0].path, field);
    }
    // several missing: every one named in the same answer (a blank first_name, also checked here,
    // is refused when the individual is written: test/blank-names.test.ts)
    const bare = await caseWithPerson(api, { birth_date: null, address: {} });
    const all = await api.post('/v1/checks/ekyc', { individual_id: bare.individualId });
    assert.equal(all.status, 400, JSON.stringify(all.body));
    assert.deepEqual(
      all.body.details.map((d: { path: string }) => d.path),
      ['birth_date', 'address.country'],
    );
    assert.match(all.body.message, /birth_date, address.country/);
    // a profile for a country eKYC does not cover, or for no country, is refused: nothing stored
    for (const [country, method] of [
      ['LU', 'patch'],
      ['XX', 'put'],
    ] as const) {
      const refused = await api[method]('/v1/workspace/settings', {
        checks: { ekyc: { profiles: { DE: { profile_id: 'p-de' }, [country]: { profile_id: 'p-x' } } } },
      });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.deepEqual(
        refused.body.details.map((d: { path: string }) => d.path),
        [`checks.ekyc.profiles.${country}`],
      );
      assert.match(refused.body.message, new RegExp(`eKYC does not cover ${country}`));
      const stored = (await api.get('/v1/workspace/settings')).body;
      assert.equal(stored.checks?.ekyc?.profiles ?? null, null, JSON.stringify(stored));
    }
    await api.patch('/v1/workspace/settings', {
      checks: { ekyc: { profiles: { DE: { profile_id: 'p-de' } } } },
    });
    const fr = await caseWithPerson(api);
    const res = await api.post('/v1/checks/ekyc', { individual_id: fr.individualId });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /profile/);
    const de = await caseWithPerson(api, { address: { country: 'DE' } });
    const ok = await api.post('/v1/checks/ekyc', { individual_id: de.individualId });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.data.vendor.profile_id, 'p-de');
    const n = await ctx.db
      .selectFrom('checks')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.equal(n.length, 1);
    assert.equal((await api.post('/v1/checks/ekyc', { individual_id: 'nope' })).status, 400);
    assert.equal(
      (await api.post('/v1/checks/ekyc', { individual_id: '00000000-0000-4000-8000-000000000000' })).status,
      404,
    );
    assert.equal((await api.post('/v1/checks/ekyc', { company_id: de.companyId })).status, 400);
    assert.equal(
      (await api.post('/v1/checks/ekyc', { individual_id: de.individualId, settings: { vendor: 'gbg' } }))
        .status,
      400,
    );
  });

  test('an eKYC left to a person says why: a contradiction with automatic_rejection off, an inconclusive answer', async () => {
    const api = await newWorkspace();
    const inconsistent = await caseWithPerson(api, { last_name: 'Inconsistent' });
    const off = await api.post('/v1/checks/ekyc', {
      individual_id: inconsistent.individualId,
      settings: { automatic_rejection: false },
    });
    assert.equal(off.status, 201, JSON.stringify(off.body));
    assert.equal(off.body.status, 'need_review');
    assert.equal(off.body.data.review.reviewer_type, null);
    assert.equal(
      off.body.data.review.comment,
      'Needs a review (automatic_rejection is off): the data sources for FR contradict the declared identity',
    );
    const inconclusive = await caseWithPerson(api, { last_name: 'Inconclusive' });
    const open = await api.post('/v1/checks/ekyc', { individual_id: inconclusive.individualId });
    assert.equal(open.body.status, 'need_review');
    assert.equal(
      open.body.data.review.comment,
      'Needs a review: the data sources for FR could not confirm the declared identity',
    );
  });

  test('settings resolve field by field: request, then workspace, then default', async () => {
    const api = await newWorkspace();
    await api.patch('/v1/workspace/settings', { checks: { ekyc: { automatic_approval: false } } });
    const { individualId } = await caseWithPerson(api);
    const a = await api.post('/v1/checks/ekyc', { individual_id: individualId });
    assert.equal(a.body.status, 'need_review');
    // why a person must look: the identity matched, and automatic_approval is off
    assert.equal(a.body.data.decision, 'match');
    assert.match(
      a.body.data.review.comment,
      /^Needs a review \(automatic_approval is off\): the data sources for [A-Z]{2} match the declared identity$/,
    );
    assert.deepEqual(a.body.data.settings, {
      vendor: 'ekyc_provider_1',
      automatic_approval: false,
      automatic_rejection: true,
    });
    const b = await api.post('/v1/checks/ekyc', {
      individual_id: individualId,
      settings: { automatic_approval: true },
    });
    assert.equal(b.body.status, 'approved');
  });

  test('workspace check limit → 400 limit reached', async () => {
    const api = await newWorkspace();
    await api.patch('/v1/workspace/settings', { checks: { limit: 1 } });
    const { individualId } = await caseWithPerson(api);
    assert.equal((await api.post('/v1/checks/ekyc', { individual_id: individualId })).status, 201);
    const res = await api.post('/v1/checks/ekyc', { individual_id: individualId });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /limit reached/);
  });
});

/** An eKYC check whose expiration date has passed (not swept yet). */
async function ekycCheckPastExpiry() {
  const api = await newWorkspace();
  const { ctx } = await getHarness();
  const { individualId, caseId } = await caseWithPerson(api);
  const check = (await api.post('/v1/checks/ekyc', { individual_id: individualId })).body;
  await ctx.db
    .updateTable('checks')
    .set({ expires_at: new Date(Date.now() - 1000) })
    .where('id', '=', check.id)
    .execute();
  return { api, ctx, check, caseId };
}

/** An eKYC check whose expiration date has passed, swept to expired. */
async function expiredEkycCheck() {
  const { api, ctx, check } = await ekycCheckPastExpiry();
  assert.ok((await expireDueChecks(ctx)) >= 1);
  return { api, ctx, check };
}

describe('check engine', () => {
  test('review: approve/reject with comment; decided checks need override', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { individualId, caseId } = await caseWithPerson(api, { last_name: 'Inconclusive' });
    const check = (await api.post('/v1/checks/ekyc', { individual_id: individualId })).body;
    assert.equal(check.status, 'need_review');
    assert.equal(
      (await other.patch(`/v1/checks/ekyc/${check.id}/review`, { action: 'approve' })).status,
      404,
    );
    assert.equal((await api.patch(`/v1/checks/ekyc/${check.id}/review`, { action: 'maybe' })).status, 400);
    const ok = await api.patch(`/v1/checks/ekyc/${check.id}/review`, {
      action: 'approve',
      comment: 'Seen the passport',
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.status, 'approved');
    assert.equal(ok.body.data.result, 'approved');
    assert.equal(ok.body.data.review.reviewer_type, 'api');
    assert.equal(ok.body.data.review.comment, 'Seen the passport');
    const again = await api.patch(`/v1/checks/ekyc/${check.id}/review`, { action: 'reject' });
    assert.equal(again.status, 400);
    assert.equal(again.body.details[0].path, 'override');
    const over = await api.patch(`/v1/checks/ekyc/${check.id}/review`, { action: 'reject', override: true });
    assert.equal(over.body.status, 'rejected');
    const c = (await api.get(`/v1/cases/${caseId}`)).body;
    assert.equal(c.reviewer_has_actions, false);
    const got = await api.get(`/v1/checks/ekyc/${check.id}`);
    assert.equal(got.body.data.result, 'rejected');
    assert.equal((await other.get(`/v1/checks/ekyc/${check.id}`)).status, 404);
    assert.equal((await api.get(`/v1/checks/id_document/${check.id}`)).status, 404);
    const types = (await eventTypes(api.workspaceId))
      .map((e) => e.type)
      .filter((t) => t.startsWith('Check.'));
    assert.deepEqual(types, ['Check.Started', 'Check.ReviewNeeded', 'Check.Approved', 'Check.Rejected']);

    // reviewed again to the same status (an analyst confirms, with a comment): its own decision,
    // announced and in the activities (it left no trace but the check's data)
    const confirmed = await api.patch(`/v1/checks/ekyc/${check.id}/review`, {
      action: 'reject',
      comment: 'Confirmed with the compliance officer',
      override: true,
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.equal(confirmed.body.data.review.comment, 'Confirmed with the compliance officer');
    const after = (await eventTypes(api.workspaceId)).filter((e) => e.type.startsWith('Check.'));
    assert.deepEqual(
      after.map((e) => e.type),
      ['Check.Started', 'Check.ReviewNeeded', 'Check.Approved', 'Check.Rejected', 'Check.Rejected'],
    );
    const activities = await api.get(`/v1/activities?case_id=${caseId}&type=api__rejected__check`);
    assert.equal(activities.body.data.length, 2, JSON.stringify(activities.body));
  });

  test("without sort, checks come in the spec's default order: created_at ascending (not the reference's updated_at)", async () => {
    const api = await newWorkspace();
    const a = await caseWithPerson(api, { last_name: 'Inconclusive' });
    const b = await caseWithPerson(api, { last_name: 'Inconclusive' });
    const c1 = (await api.post('/v1/checks/ekyc', { individual_id: a.individualId })).body;
    const c2 = (await api.post('/v1/checks/ekyc', { individual_id: b.individualId })).body;
    assert.equal((await api.get('/v1/checks?status=need_review')).body.pagination.count, 2);
    // the first one created is the last one changed
    assert.equal((await api.patch(`/v1/checks/ekyc/${c1.id}/review`, { action: 'approve' })).status, 200);
    const ids = async (q: string) => (await api.get(`/v1/checks${q}`)).body.data.map((x: any) => x.id);
    assert.deepEqual(await ids(''), [c1.id, c2.id]);
    assert.deepEqual(await ids('?sort=updated_at'), [c2.id, c1.id]);
    assert.deepEqual(await ids('?sort=created_at'), [c1.id, c2.id]);
    // the OpenAPI document says so
    const doc = (await api.get('/v1/openapi.json')).body;
    const sort = doc.paths['/v1/checks'].get.parameters.find((p: { name: string }) => p.name === 'sort');
    assert.match(sort.description, /Default created_at ascending/);
  });

  test('list checks (envelopes only) with filters; delete; types not enabled answer 400', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const a = await caseWithPerson(api);
    const b = await caseWithPerson(api, { last_name: 'Inconclusive' });
    const c1 = (await api.post('/v1/checks/ekyc', { individual_id: a.individualId })).body;
    const c2 = (await api.post('/v1/checks/ekyc', { individual_id: b.individualId })).body;
    const all = await api.get('/v1/checks');
    assert.equal(all.body.pagination.count, 2);
    assert.equal('data' in all.body.data[0], false);
    assert.equal((await api.get('/v1/checks?status=need_review')).body.pagination.count, 1);
    // a review moves the check's dates: the date filters and sorts see it in every order
    const before = new Date().toISOString();
    assert.equal((await api.patch(`/v1/checks/ekyc/${c2.id}/review`, { action: 'approve' })).status, 200);
    for (const sort of ['created_at', 'updated_at.desc', 'last_activity_at', 'last_activity_at.desc']) {
      const changed = await api.get(`/v1/checks?updated_at.gte=${encodeURIComponent(before)}&sort=${sort}`);
      assert.deepEqual(
        changed.body.data.map((x: any) => x.id),
        [c2.id],
        sort,
      );
    }
    const byActivity = await api.get('/v1/checks?sort=last_activity_at.desc');
    assert.deepEqual(
      byActivity.body.data.map((x: any) => x.id),
      [c2.id, c1.id],
    );
    assert.deepEqual(
      (await api.get('/v1/checks?status=approved&sort=last_activity_at')).body.data.map((x: any) => x.id),
      [c1.id, c2.id],
    );
    assert.equal((await api.get(`/v1/checks?individual_id=${a.individualId}`)).body.data[0].id, c1.id);
    assert.equal((await api.get('/v1/checks?type=ekyc&exclude_internal=true')).body.pagination.count, 0);
    assert.equal((await api.get('/v1/checks?status=done')).status, 400);
    assert.equal((await other.get('/v1/checks')).body.pagination.count, 0);
    await api.post(`/v1/individuals/${b.individualId}/set-relevant`, { is_relevant: false });
    assert.equal((await api.get('/v1/checks')).body.pagination.count, 1);
    assert.equal((await api.get('/v1/checks?include_not_relevant=true')).body.pagination.count, 2);
    assert.equal((await other.delete(`/v1/checks/${c1.id}`)).status, 404);
    assert.equal((await api.delete(`/v1/checks/${c1.id}`)).status, 204);
    assert.equal((await api.get(`/v1/checks/ekyc/${c1.id}`)).status, 404);
    const deleted = (await eventTypes(api.workspaceId)).filter((e) => e.type === 'Check.Deleted');
    assert.equal(deleted.length, 1);
    // every spec type is enabled now; electronic_signature refuses a body without its settings
    const sig = await api.post('/v1/checks/electronic_signature', { individual_id: a.individualId });
    assert.equal(sig.status, 400);
    assert.equal(sig.body.details[0].path, 'settings');
    const nonsense = await api.post('/v1/checks/nonsense', {});
    assert.equal(nonsense.status, 404);
    assert.equal(nonsense.body.details[0].path, 'type');
    assert.match(
      nonsense.body.message,
      /^There is no check type nonsense: POST \/v1\/checks\/\{type\} takes .*ekyc/,
    );
  });

  test('no target: the 400 names every target the type takes (individual_id or company_id)', async () => {
    // fraud_database with {} said "individual_id is required", though a company_id would do
    const api = await newWorkspace();
    const expected: [string, string, string][] = [
      ['fraud_database', 'individual_id or company_id is required', 'individual_id'],
      ['fraud-database', 'individual_id or company_id is required', 'individual_id'],
      ['aml', 'individual_id or company_id is required', 'individual_id'],
      ['ekyc', 'individual_id is required', 'individual_id'],
      ['online_reputation', 'company_id is required', 'company_id'],
    ];
    for (const [type, message, path] of expected) {
      const res = await api.post(`/v1/checks/${type}`, {});
      assert.equal(res.status, 400, `${type} ${JSON.stringify(res.body)}`);
      assert.equal(res.body.message, message, type);
      assert.equal(res.body.details[0].path, path, type);
    }
  });

  test('a check past its expiration date becomes expired with Check.Expired', async () => {
    const { api, ctx, check } = await expiredEkycCheck();
    const got = (await api.get(`/v1/checks/ekyc/${check.id}`)).body;
    assert.equal(got.status, 'expired');
    const ev = (await eventTypes(api.workspaceId)).filter((e) => e.type === 'Check.Expired');
    assert.equal(ev.length, 1);
    assert.equal((ev[0].payload as any).check.id, check.id);
    assert.equal(await expireDueChecks(ctx), 0);
  });

  test('a check of a deleted case is not expired: no change and no Check.Expired after Case.Deleted', async () => {
    const { api, ctx, check, caseId } = await ekycCheckPastExpiry();
    assert.equal((await api.delete(`/v1/cases/${caseId}`)).status, 204);
    await expireDueChecks(ctx);
    const row = await ctx.db
      .selectFrom('checks')
      .select('status')
      .where('id', '=', check.id)
      .executeTakeFirst();
    assert.equal(row?.status, check.status);
    const types = (await eventTypes(api.workspaceId)).map((e) => e.type);
    assert.equal(types.at(-1), 'Case.Deleted');
    assert.ok(!types.includes('Check.Expired'));
  });

  test('an expired check approved by review stays approved: the spent date does not expire it again', async () => {
    const { api, ctx, check } = await expiredEkycCheck();
    const reviewed = await api.patch(`/v1/checks/ekyc/${check.id}/review`, {
      action: 'approve',
      comment: 'Expired, accepted by the compliance officer',
    });
    assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    assert.equal(reviewed.body.status, 'approved');
    // the next sweeps leave the reviewer's decision alone
    assert.equal(await expireDueChecks(ctx), 0);
    assert.equal(await expireDueChecks(ctx, new Date(Date.now() + 86_400_000)), 0);
    const got = (await api.get(`/v1/checks/ekyc/${check.id}`)).body;
    assert.equal(got.status, 'approved');
    assert.equal(got.data.review.comment, 'Expired, accepted by the compliance officer');
    const types = (await eventTypes(api.workspaceId))
      .filter((e) => (e.payload as any).check?.id === check.id)
      .map((e) => e.type);
    assert.deepEqual(types, ['Check.Started', 'Check.Approved', 'Check.Expired', 'Check.Approved']);
    const row = await ctx.db
      .selectFrom('checks')
      .select('expires_at')
      .where('id', '=', check.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.expires_at, null);
  });

  test('a review before the expiration date keeps it: the check still expires then', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const { individualId } = await caseWithPerson(api, { last_name: 'Inconclusive' });
    const check = (await api.post('/v1/checks/ekyc', { individual_id: individualId })).body;
    assert.equal(check.status, 'need_review');
    const due = new Date(Date.now() + 3_600_000);
    await ctx.db.updateTable('checks').set({ expires_at: due }).where('id', '=', check.id).execute();
    assert.equal((await api.patch(`/v1/checks/ekyc/${check.id}/review`, { action: 'approve' })).status, 200);
    assert.equal(await expireDueChecks(ctx), 0);
    assert.equal(await expireDueChecks(ctx, new Date(due.getTime() + 1000)), 1);
    assert.equal((await api.get(`/v1/checks/ekyc/${check.id}`)).body.status, 'expired');
  });
});

describe('company_monitoring (read-only over the API)', () => {
  test('create is refused with 400 on both spellings; retrieve of an unknown id is 404', async () => {
    const api = await newWorkspace();
    const { companyId } = await caseWithPerson(api);
    for (const path of ['company_monitoring', 'company-monitoring']) {
      const res = await api.post(`/v1/checks/${path}`, { company_id: companyId });
      assert.equal(res.status, 400, path);
      assert.match(res.body.message, /no create endpoint/);
      assert.equal(res.body.details[0].path, 'type');
      const got = await api.get(`/v1/checks/${path}/00000000-0000-4000-8000-000000000000`);
      assert.equal(got.status, 404);
      assert.equal(got.body.code, 'NOT_FOUND');
    }
  });
});

describe('provider jobs', () => {
  test('a job that runs twice has the effect of running once', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const { companyId } = await caseWithPerson(api);
    const check = (await api.post('/v1/checks/online_reputation', { company_id: companyId })).body;
    assert.equal(check.status, 'processing');
    const { processCheckJob } = await import('../src/checks/engine/process-job.ts');
    // the queue's run and a duplicate run (a retry after a crash) race each other
    await Promise.all([
      processCheckJob(ctx, { checkId: check.id, attempt: 1 }),
      processCheckJob(ctx, { checkId: check.id, attempt: 1 }),
    ]);
    const { eventually } = await import('./helpers/harness.ts');
    await eventually(
      async () => (await api.get(`/v1/checks/online_reputation/${check.id}`)).body.status === 'approved',
    );
    await processCheckJob(ctx, { checkId: check.id, attempt: 1 });
    const events = (await eventTypes(api.workspaceId)).filter(
      (e) => e.type.startsWith('Check.') && (e.payload as any).check.id === check.id,
    );
    assert.deepEqual(
      events.map((e) => e.type),
      ['Check.Started', 'Check.Approved'],
    );
  });

  test("a job for a check whose case was deleted meanwhile drops its result: nothing follows the case's Case.Deleted", async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const { eventually } = await import('./helpers/harness.ts');
    const { processCheckJob } = await import('../src/checks/engine/process-job.ts');
    const { caseId, companyId } = await caseWithPerson(api);
    const check = (await api.post('/v1/checks/online_reputation', { company_id: companyId })).body;
    // the queue's own run settles it first; then the check is put back as it was while its
    // provider worked, so that the run below is the one in flight when the case is deleted
    await eventually(
      async () => (await api.get(`/v1/checks/online_reputation/${check.id}`)).body.status === 'approved',
    );
    await ctx.db.updateTable('checks').set({ status: 'processing' }).where('id', '=', check.id).execute();
    assert.equal((await api.delete(`/v1/cases/${caseId}`)).status, 204);
    const seqOf = async () =>
      ctx.db
        .selectFrom('events')
        .select(['seq', 'type'])
        .where('workspace_id', '=', api.workspaceId)
        .where('case_id', '=', caseId)
        .orderBy('seq')
        .execute();
    const before = await seqOf();
    assert.equal(before.at(-1)?.type, 'Case.Deleted');

    await processCheckJob(ctx, { checkId: check.id, attempt: 1 });
    assert.deepEqual(await seqOf(), before, 'no event after Case.Deleted');
    const row = await ctx.db
      .selectFrom('checks')
      .select('status')
      .where('id', '=', check.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'processing', 'the result was not applied');
  });
});
