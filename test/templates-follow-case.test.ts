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
    .orderBy('created_at')
    .orderBy('id')
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
});
