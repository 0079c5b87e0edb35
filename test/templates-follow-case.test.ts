import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

/**
 * A case's template follows the case (reference behaviour): entities added one by one get the
 * template's checks they are targets of, and PATCH /v1/cases/{id} can set the template later.
 */

const person = (first: string, last: string, extra: Record<string, unknown> = {}) => ({
  first_name: first,
  last_name: last,
  birth_date: '1980-01-01',
  address: { country: 'FR' },
  ...extra,
});

async function template(api: Client) {
  const res = await api.post('/v1/templates', {
    key: 'kyb',
    name: 'KYB',
    checks: [
      { type: 'ekyc', targets: ['legal_representatives', 'beneficial_owners'] },
      { type: 'online_reputation', targets: ['main_company'] },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function checksOf(workspaceId: string, caseId: string) {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('checks')
    .select(['type', 'company_id', 'individual_id', 'template_id'])
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    .execute();
  return rows.map((r) => `${r.type}:${r.company_id ?? r.individual_id}`).sort();
}

async function eventTypes(workspaceId: string, caseId: string) {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select(['type', 'sub_event'])
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    // insertion order: the events of one transaction share their created_at
    .orderBy('seq')
    .execute();
  return rows.map((r) => r.sub_event ?? r.type);
}

describe('templates follow the case', () => {
  test('case first, then entities one by one: each gets the checks it is a target of', async () => {
    const api = await newWorkspace();
    const t = await template(api);
    const kase = await api.post('/v1/cases', { name: 'Step by step', template_key: 'kyb' });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    assert.equal(kase.body.template.key, 'kyb');
    assert.deepEqual(await checksOf(api.workspaceId, kase.body.id), []);

    const main = await api.post('/v1/companies', { case_id: kase.body.id, name: 'Acme', country: 'FR' });
    assert.equal(main.status, 201, JSON.stringify(main.body));
    assert.deepEqual(
      main.body.checks.map((c: { type: string }) => c.type),
      ['online_reputation'],
    );

    // not a target: no check
    const plain = await api.post('/v1/individuals', { case_id: kase.body.id, ...person('Plain', 'Person') });
    assert.equal(plain.status, 201, JSON.stringify(plain.body));
    assert.deepEqual(plain.body.checks, []);

    const ceo = await api.post('/v1/individuals', {
      case_id: kase.body.id,
      ...person('Ada', 'Lovelace'),
      relations: [{ roles: ['legal_representative'], position: 'CEO' }],
    });
    assert.equal(ceo.status, 201, JSON.stringify(ceo.body));
    assert.deepEqual(
      ceo.body.checks.map((c: { type: string }) => c.type),
      ['ekyc'],
    );
    const ceoCheck = (await api.get(`/v1/checks/ekyc/${ceo.body.checks[0].id}`)).body;
    assert.equal(ceoCheck.template_id ?? t.id, t.id);

    // a relation bringing the legal_representative role makes the plain person a target
    const rel = await api.post(`/v1/cases/${kase.body.id}/relations`, {
      from_individual_id: plain.body.id,
      to_company_id: main.body.id,
      roles: ['legal_representative'],
    });
    assert.equal(rel.status, 201, JSON.stringify(rel.body));
    assert.deepEqual(
      await checksOf(api.workspaceId, kase.body.id),
      [`ekyc:${ceo.body.id}`, `ekyc:${plain.body.id}`, `online_reputation:${main.body.id}`].sort(),
    );

    // entities added later get events as at creation: created, then the check's
    const events = await eventTypes(api.workspaceId, kase.body.id);
    const created = events.indexOf('Individual.Created', events.indexOf('Company.Created'));
    assert.ok(created > 0);
    assert.ok(events.slice(created).includes('Check.Started'), events.join(','));
  });

  test("an individual the template cannot check is refused naming the request's own field, not an id its rollback leaves naming nothing", async () => {
    const api = await newWorkspace();
    const made = await api.post('/v1/templates', {
      key: 'ekyc-contacts',
      name: 'eKYC of the contacts',
      checks: [{ type: 'ekyc', targets: ['business_contacts'] }],
    });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const kase = await api.post('/v1/cases', {
      name: 'Contacts',
      template_key: 'ekyc-contacts',
      companies: [{ type: 'main', name: 'Acme', country: 'FR' }],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    // eKYC needs the address's country: the contact has none
    const refused = await api.post('/v1/individuals', {
      case_id: kase.body.id,
      first_name: 'Carl',
      last_name: 'Three',
      birth_date: '1980-01-01',
      is_business_contact: true,
      relations: [{ roles: ['legal_representative'] }],
    });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.details[0].path, 'address.country');
    assert.match(refused.body.message, /for the individual being created \(Carl Three\)/);
    assert.doesNotMatch(refused.body.message, /[0-9a-f]{8}-[0-9a-f]{4}-/);
    assert.equal((await api.get(`/v1/cases/${kase.body.id}`)).body.individuals.length, 0);
  });

  test('PATCH /v1/cases/{id} with template_key applies it to the current entities once', async () => {
    const api = await newWorkspace();
    await template(api);
    const kase = await api.post('/v1/cases', {
      name: 'Template later',
      companies: [{ name: 'Acme', country: 'FR' }],
      individuals: [person('Alan', 'Turing', { is_beneficial_owner: true })],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const patched = await api.patch(`/v1/cases/${kase.body.id}`, { template_key: 'kyb' });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.template.key, 'kyb');
    const expected = [
      `ekyc:${kase.body.individuals[0].id}`,
      `online_reputation:${kase.body.companies[0].id}`,
    ].sort();
    assert.deepEqual(await checksOf(api.workspaceId, kase.body.id), expected);
    assert.ok((await eventTypes(api.workspaceId, kase.body.id)).includes('Case.TemplateUpdated'));

    // again: nothing new
    assert.equal((await api.patch(`/v1/cases/${kase.body.id}`, { template_key: 'kyb' })).status, 200);
    assert.deepEqual(await checksOf(api.workspaceId, kase.body.id), expected);

    // null detaches; the checks stay; later entities get nothing
    const detached = await api.patch(`/v1/cases/${kase.body.id}`, { template_key: null });
    assert.equal(detached.status, 200);
    assert.equal(detached.body.template, null);
    const later = await api.post('/v1/individuals', {
      case_id: kase.body.id,
      ...person('Grace', 'Hopper', { is_beneficial_owner: true }),
    });
    assert.deepEqual(later.body.checks, []);
    assert.deepEqual(await checksOf(api.workspaceId, kase.body.id), expected);

    const unknown = await api.patch(`/v1/cases/${kase.body.id}`, { template_key: 'nope' });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.details[0].path, 'template_key');
  });

  test("PATCH naming the case's own template changes nothing; another template applies", async () => {
    const api = await newWorkspace();
    const t = await template(api);
    const kase = await api.post('/v1/cases', {
      name: 'Templated',
      template_key: 'kyb',
      companies: [{ name: 'Acme', country: 'FR' }],
      individuals: [person('Alan', 'Turing', { is_beneficial_owner: true })],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const url = `/v1/cases/${kase.body.id}`;
    const company = kase.body.companies[0].id;
    const all = [`ekyc:${kase.body.individuals[0].id}`, `online_reputation:${company}`].sort();
    assert.deepEqual(await checksOf(api.workspaceId, kase.body.id), all);
    // someone deleted a template check: it is the record of what they want
    const reputation = (await api.get(url)).body.companies[0].checks[0];
    assert.equal(reputation.type, 'online_reputation');
    assert.equal((await api.delete(`/v1/checks/${reputation.id}`)).status, 204);
    const kept = [`ekyc:${kase.body.individuals[0].id}`];
    assert.deepEqual(await checksOf(api.workspaceId, kase.body.id), kept);

    const { ctx } = await getHarness();
    const outbox = async () =>
      (
        await ctx.db
          .selectFrom('events')
          .select(['seq', 'type', 'sub_event'])
          .where('workspace_id', '=', api.workspaceId)
          .orderBy('seq')
          .execute()
      ).map((e) => `${e.seq}:${e.sub_event ?? e.type}`);
    const activities = async () => (await api.get('/v1/activities?limit=100')).body.data.length;
    const stored = (await api.get(url)).body;
    const events = await outbox();
    const activityCount = await activities();
    for (const body of [
      { template_key: 'kyb' },
      { template_id: t.id },
      { name: 'Templated', template_key: 'kyb' },
    ]) {
      const res = await api.patch(url, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.updated_at, stored.updated_at, JSON.stringify(body));
      assert.deepEqual(res.body.template, stored.template);
      assert.deepEqual((await api.get(url)).body, stored, `${JSON.stringify(body)}: the case as it was`);
      assert.deepEqual(
        await checksOf(api.workspaceId, kase.body.id),
        kept,
        'the deleted check stays deleted',
      );
      assert.deepEqual(await outbox(), events, `${JSON.stringify(body)}: no event`);
      assert.equal(await activities(), activityCount, `${JSON.stringify(body)}: no activity`);
    }

    // running the case's template again is its own request: the deleted check comes back
    const run = await api.post('/v1/templates/run', { case_id: kase.body.id });
    assert.equal(run.status, 201, JSON.stringify(run.body));
    const afterRun = await checksOf(api.workspaceId, kase.body.id);
    assert.ok(afterRun.includes(`online_reputation:${company}`), afterRun.join(','));

    // another template applies: set, Case.TemplateUpdated, its checks created where an entity lacks
    // them; a check the entity already has (from the former template here) is not run a second time
    // but adopted: the new template's auto-approval waits for it (walk 56-B)
    const other = await api.post('/v1/templates', {
      key: 'kyb2',
      name: 'KYB 2',
      case_auto_approval: true,
      checks: [
        { type: 'online_reputation', targets: ['companies'] },
        { type: 'ekyc', targets: ['business_contacts'] },
      ],
    });
    assert.equal(other.status, 201, JSON.stringify(other.body));
    const contact = await api.post('/v1/individuals', {
      case_id: kase.body.id,
      ...person('Grace', 'Hopper', { is_business_contact: true }),
    });
    assert.equal(contact.status, 201, JSON.stringify(contact.body));
    // kyb's ekyc targets are legal representatives and beneficial owners: Grace got none
    assert.deepEqual(await checksOf(api.workspaceId, kase.body.id), afterRun);
    const before = (await outbox()).length;
    const switched = await api.patch(url, { template_key: 'kyb2' });
    assert.equal(switched.status, 200, JSON.stringify(switched.body));
    assert.equal(switched.body.template.key, 'kyb2');
    assert.notEqual(switched.body.updated_at, stored.updated_at);
    assert.deepEqual(
      await checksOf(api.workspaceId, kase.body.id),
      [...afterRun, `ekyc:${contact.body.id}`].sort(),
      'one online_reputation on the company, as before; an ekyc for the contact, who had none',
    );
    const added = (await outbox()).slice(before).map((e) => e.split(':')[1]);
    assert.ok(added.includes('Case.TemplateUpdated'), added.join(','));
    assert.equal(added.filter((e) => e === 'Check.Started').length, 1, added.join(','));
    const owners = await ctx.db
      .selectFrom('checks')
      .select(['type', 'company_id', 'individual_id', 'template_id'])
      .where('case_id', '=', kase.body.id)
      .execute();
    const ofTemplate = (id: string) =>
      owners
        .filter((c) => c.template_id === id)
        .map((c) => `${c.type}:${c.company_id ?? c.individual_id}`)
        .sort();
    assert.deepEqual(
      ofTemplate(other.body.id),
      [`ekyc:${contact.body.id}`, `online_reputation:${company}`].sort(),
    );
    // Alan's ekyc checks (the run above made a second) stay kyb's: kyb2 does not target him
    assert.deepEqual(
      ofTemplate(t.id),
      afterRun.filter((c) => c.startsWith('ekyc:')),
    );
  });
});

/**
 * An entity already in the case that BECOMES a target (a flag, a role, a relation's role, marked
 * relevant again) gets the template's checks it is now a target of, once: as an entity added later.
 * An entity that stops being a target keeps its checks.
 */
describe('templates follow the case: an entity that becomes a target', () => {
  async function contactsTemplate(api: Client) {
    const res = await api.post('/v1/templates', {
      key: 'contacts',
      name: 'Contacts and representatives',
      checks: [
        { type: 'ekyc', targets: ['business_contacts', 'legal_representatives', 'signatories'] },
        { type: 'online_reputation', targets: ['legal_representatives'] },
      ],
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  async function templatedCase(api: Client) {
    const kase = await api.post('/v1/cases', {
      name: 'Becomes a target',
      template_key: 'contacts',
      companies: [
        { name: 'Acme', country: 'FR' },
        { name: 'Holdco', country: 'FR', type: 'affiliated', relations: [{ roles: ['shareholder'] }] },
      ],
      individuals: [
        person('Plain', 'Person'),
        person('Other', 'Person', { relations: [{ roles: ['shareholder'] }] }),
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    assert.deepEqual(await checksOf(api.workspaceId, kase.body.id), []);
    return kase.body;
  }

  test('PATCH is_business_contact true creates the checks once; false keeps them; true again adds none', async () => {
    const api = await newWorkspace();
    const t = await contactsTemplate(api);
    const kase = await templatedCase(api);
    const id = kase.individuals[0].id;

    // a change that does not make a target: nothing
    const renamed = await api.patch(`/v1/individuals/${id}`, { email: 'plain@example.com' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), []);

    const before = (await eventTypes(api.workspaceId, kase.id)).length;
    const patched = await api.patch(`/v1/individuals/${id}`, { is_business_contact: true });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.is_business_contact, true);
    // the answer shows the check, as an individual added later does
    assert.deepEqual(
      patched.body.checks.map((c: { type: string }) => c.type),
      ['ekyc'],
    );
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), [`ekyc:${id}`]);
    const check = (await api.get(`/v1/checks/ekyc/${patched.body.checks[0].id}`)).body;
    assert.equal(check.template_id ?? t.id, t.id);
    // the update's event, then the check's, as for an entity added later
    const events = (await eventTypes(api.workspaceId, kase.id)).slice(before);
    assert.equal(events[0], 'Individual.InfoUpdated', events.join(','));
    assert.ok(events.includes('Check.Started'), events.join(','));

    // no longer a target: the check stays
    const off = await api.patch(`/v1/individuals/${id}`, { is_business_contact: false });
    assert.equal(off.status, 200);
    assert.equal(off.body.checks.length, 1);
    // a target again: no second check of the template for the same entity and type
    const on = await api.patch(`/v1/individuals/${id}`, { is_business_contact: true });
    assert.equal(on.status, 200);
    assert.equal(on.body.checks.length, 1);
    // a target twice over (signatory too): still one check of the type
    await api.patch(`/v1/individuals/${id}`, { is_signatory: true });
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), [`ekyc:${id}`]);
  });

  test('an update applies the template to the entity it changed only: a deleted check elsewhere stays deleted', async () => {
    const api = await newWorkspace();
    await contactsTemplate(api);
    const kase = await templatedCase(api);
    const [first, second] = [kase.individuals[0].id, kase.individuals[1].id];
    const made = await api.patch(`/v1/individuals/${first}`, { is_business_contact: true });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    // someone removes the first person's template check on purpose
    assert.equal((await api.delete(`/v1/checks/${made.body.checks[0].id}`)).status, 204);
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), []);
    // another person becomes a target: only they get the check
    const other = await api.patch(`/v1/individuals/${second}`, { is_business_contact: true });
    assert.equal(other.status, 200, JSON.stringify(other.body));
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), [`ekyc:${second}`]);
  });

  test('an entity or a relation added later gets its checks; a check deleted elsewhere stays deleted', async () => {
    const api = await newWorkspace();
    await contactsTemplate(api);
    const kase = await templatedCase(api);
    const first = kase.individuals[0].id;
    const made = await api.patch(`/v1/individuals/${first}`, { is_business_contact: true });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    // someone removes the first person's template check on purpose
    assert.equal((await api.delete(`/v1/checks/${made.body.checks[0].id}`)).status, 204);
    // a new business contact: they get the check, the first person does not get theirs back
    const added = await api.post('/v1/individuals', {
      case_id: kase.id,
      ...person('New', 'Contact', { is_business_contact: true }),
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), [`ekyc:${added.body.id}`]);
    // a new company (no target of this template) and a new relation: the same
    const company = await api.post('/v1/companies', {
      case_id: kase.id,
      name: 'Subsidiary',
      country: 'FR',
      type: 'affiliated',
    });
    assert.equal(company.status, 201, JSON.stringify(company.body));
    const second = kase.individuals[1].id;
    const rel = await api.post(`/v1/cases/${kase.id}/relations`, {
      from_individual_id: second,
      to_company_id: company.body.id,
      roles: ['legal_representative'],
    });
    assert.equal(rel.status, 201, JSON.stringify(rel.body));
    assert.deepEqual(
      await checksOf(api.workspaceId, kase.id),
      [`ekyc:${added.body.id}`, `ekyc:${second}`].sort(),
    );
  });

  test('PATCH roles and a relation role making a legal representative create the checks', async () => {
    const api = await newWorkspace();
    await contactsTemplate(api);
    const kase = await templatedCase(api);
    const [plain, other] = kase.individuals.map((i: { id: string }) => i.id);
    const [main, holdco] = kase.companies.map((c: { id: string }) => c.id);

    // the individual's own roles toward the main company
    const roles = await api.patch(`/v1/individuals/${plain}`, { roles: ['legal_representative'] });
    assert.equal(roles.status, 200, JSON.stringify(roles.body));
    assert.deepEqual(
      roles.body.checks.map((c: { type: string }) => c.type),
      ['ekyc'],
    );

    // a relation's roles: the individual's and the affiliated company's relations
    const ofOther = kase.individuals[1].relations[0];
    const ofHoldco = kase.companies[1].relations[0];
    assert.deepEqual([ofOther.roles, ofHoldco.roles], [['shareholder'], ['shareholder']]);
    const position = await api.patch(`/v1/cases/${kase.id}/relations/${ofOther.id}`, { position: 'Clerk' });
    assert.equal(position.status, 200, JSON.stringify(position.body));
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), [`ekyc:${plain}`]);
    for (const r of [ofOther, ofHoldco]) {
      const res = await api.patch(`/v1/cases/${kase.id}/relations/${r.id}`, {
        roles: ['legal_representative'],
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    const expected = [`ekyc:${plain}`, `ekyc:${other}`, `online_reputation:${holdco}`].sort();
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), expected);
    assert.ok(!expected.some((c) => c.endsWith(main)));

    // the role taken away and given back: nothing new
    await api.patch(`/v1/cases/${kase.id}/relations/${ofHoldco.id}`, { roles: ['shareholder'] });
    await api.patch(`/v1/cases/${kase.id}/relations/${ofHoldco.id}`, { roles: ['legal_representative'] });
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), expected);
  });

  test('an entity marked relevant again is a target again; not relevant, it gets nothing', async () => {
    const api = await newWorkspace();
    await contactsTemplate(api);
    const kase = await templatedCase(api);
    const id = kase.individuals[0].id;
    const hidden = await api.post(`/v1/individuals/${id}/set-relevant`, { is_relevant: false });
    assert.equal(hidden.status, 200, JSON.stringify(hidden.body));
    // targets pick the case's relevant entities
    await api.patch(`/v1/individuals/${id}`, { is_business_contact: true });
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), []);
    const shown = await api.post(`/v1/individuals/${id}/set-relevant`, { is_relevant: true });
    assert.equal(shown.status, 200, JSON.stringify(shown.body));
    assert.equal(shown.body.checks.length, 1);
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), [`ekyc:${id}`]);

    // an affiliated company, a legal representative while not relevant, then relevant again
    const holdco = kase.companies[1];
    assert.equal(
      (await api.post(`/v1/companies/${holdco.id}/set-relevant`, { is_relevant: false })).status,
      200,
    );
    const rel = await api.patch(`/v1/cases/${kase.id}/relations/${holdco.relations[0].id}`, {
      roles: ['legal_representative'],
    });
    assert.equal(rel.status, 200, JSON.stringify(rel.body));
    assert.deepEqual(await checksOf(api.workspaceId, kase.id), [`ekyc:${id}`]);
    const back = await api.post(`/v1/companies/${holdco.id}/set-relevant`, { is_relevant: true });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.deepEqual(
      back.body.checks.map((c: { type: string }) => c.type),
      ['online_reputation'],
    );
    assert.deepEqual(
      await checksOf(api.workspaceId, kase.id),
      [`ekyc:${id}`, `online_reputation:${holdco.id}`].sort(),
    );
  });

  test('a case without a template, or whose template was detached: nothing', async () => {
    const api = await newWorkspace();
    await contactsTemplate(api);
    const kase = await templatedCase(api);
    assert.equal((await api.patch(`/v1/cases/${kase.id}`, { template_key: null })).status, 200);
    const res = await api.patch(`/v1/individuals/${kase.individuals[0].id}`, { is_business_contact: true });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.checks, []);
  });
});
