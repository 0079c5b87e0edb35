import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Client, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

/**
 * `checks.limit`: checks a workspace may create per calendar month (UTC). Past it, creating a
 * check is a 400 CHECK_LIMIT_REACHED and nothing is written, also for a template's checks at case
 * creation (the whole case is refused) and when an entity joins a templated case.
 */

const LIMIT = 'CHECK_LIMIT_REACHED';

async function limited(limit: number | null): Promise<Client> {
  const api = await newWorkspace('limit');
  const res = await api.patch('/v1/workspace/settings', { checks: { limit } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return api;
}

async function individual(api: Client): Promise<{ caseId: string; individualId: string }> {
  const res = await api.post('/v1/cases', {
    name: 'limit',
    companies: [{ name: 'Limit Co', type: 'main' }],
    individuals: [{ first_name: 'A', last_name: 'B' }],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { caseId: res.body.id, individualId: res.body.individuals[0].id };
}

const checkCount = async (api: Client) =>
  (await api.get('/v1/checks?include_not_relevant=true')).body.pagination.count as number;

describe('workspace check limit', () => {
  test('sequential: the limit-th check passes, the next is a 400 CHECK_LIMIT_REACHED and writes nothing', async () => {
    const api = await limited(2);
    const { individualId } = await individual(api);
    const create = () => api.post('/v1/checks/fraud_database', { individual_id: individualId });
    assert.equal((await create()).status, 201);
    const second = await create();
    assert.equal(second.status, 201);
    const refused = await create();
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, LIMIT);
    assert.match(refused.body.message, /limit reached/);
    // the details name what refuses it: the workspace's setting, which the client may raise
    assert.deepEqual(
      refused.body.details.map((d: { path: string }) => d.path),
      ['settings.checks.limit'],
    );
    assert.equal(await checkCount(api), 2);
    // a refused type-level error (bad target) counts nothing either
    assert.equal((await api.post('/v1/checks/ekyc', { individual_id: individualId })).body.code, LIMIT);
    // deleting a check does not give its place back: the limit counts checks created this month
    assert.equal((await api.delete(`/v1/checks/${second.body.id}`)).status, 204);
    assert.equal((await create()).body.code, LIMIT);
    // raising the limit allows exactly one more; null lifts it
    await api.patch('/v1/workspace/settings', { checks: { limit: 3 } });
    assert.equal((await create()).status, 201);
    assert.equal((await create()).body.code, LIMIT);
    await api.patch('/v1/workspace/settings', { checks: { limit: null } });
    assert.equal((await create()).status, 201);
    assert.equal((await api.get('/v1/workspace/settings')).body.checks.limit, null);
  });

  test('limit 0 refuses the first check; a 400 of the type itself is not counted', async () => {
    const zero = await limited(0);
    const { individualId } = await individual(zero);
    const res = await zero.post('/v1/checks/fraud_database', { individual_id: individualId });
    assert.equal(res.status, 400);
    assert.equal(res.body.code, LIMIT);
    const one = await limited(1);
    const target = await individual(one);
    // ekyc refuses this individual (no birth date): that attempt must not use up the limit
    const ekyc = await one.post('/v1/checks/ekyc', { individual_id: target.individualId });
    assert.equal(ekyc.status, 400);
    assert.notEqual(ekyc.body.code, LIMIT);
    assert.equal((await one.post('/v1/checks/fraud_database', target)).status, 400); // case_id is no field
    assert.equal(
      (await one.post('/v1/checks/fraud_database', { individual_id: target.individualId })).status,
      201,
    );
  });

  test('concurrent creations never pass the limit', async () => {
    const api = await limited(3);
    const targets = await Promise.all([individual(api), individual(api), individual(api)]);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api.post('/v1/checks/fraud_database', { individual_id: targets[i % 3].individualId }),
      ),
    );
    const created = results.filter((r) => r.status === 201).length;
    const refused = results.filter((r) => r.status === 400 && r.body.code === LIMIT).length;
    assert.equal(created, 3, JSON.stringify(results.map((r) => r.status)));
    assert.equal(refused, 9);
    assert.equal(await checkCount(api), 3);
  });

  test("a template's checks at case creation: past the limit the whole case is refused", async () => {
    const api = await limited(2);
    const tpl = await api.post('/v1/templates', {
      key: 'fraud-all',
      name: 'Fraud on everyone',
      checks: [{ type: 'fraud_database', targets: ['individuals'] }],
    });
    assert.equal(tpl.status, 201, JSON.stringify(tpl.body));
    // three individuals, three checks: over a limit of 2
    const refused = await api.post('/v1/cases', { ...sampleCaseBody(), template_key: 'fraud-all' });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, LIMIT);
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0);
    assert.equal(await checkCount(api), 0);
    assert.equal((await api.get('/v1/companies')).body.pagination.count, 0);

    await api.patch('/v1/workspace/settings', { checks: { limit: 3 } });
    const ok = await api.post('/v1/cases', { ...sampleCaseBody(), template_key: 'fraud-all' });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    assert.equal(await checkCount(api), 3);
    // an individual joining the templated case would get a fourth check: refused, not created
    const joining = await api.post('/v1/individuals', {
      case_id: ok.body.id,
      first_name: 'New',
      last_name: 'One',
    });
    assert.equal(joining.status, 400);
    assert.equal(joining.body.code, LIMIT);
    assert.equal((await api.get(`/v1/cases/${ok.body.id}`)).body.individuals.length, 3);
  });

  test('concurrent templated case creations never pass the limit', async () => {
    const api = await limited(5);
    await api.post('/v1/templates', {
      key: 'fraud-all',
      name: 'Fraud on everyone',
      checks: [{ type: 'fraud_database', targets: ['individuals'] }],
    });
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        api.post('/v1/cases', { ...sampleCaseBody(), template_key: 'fraud-all' }),
      ),
    );
    const created = results.filter((r) => r.status === 201).length;
    assert.equal(created, 1, JSON.stringify(results.map((r) => [r.status, r.body.code])));
    assert.ok(results.every((r) => r.status === 201 || r.body.code === LIMIT));
    assert.equal(await checkCount(api), 3);
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 1);
  });
});

describe('workspace check limit: an entity that becomes a template target', () => {
  test('past the limit the PATCH is a 400 CHECK_LIMIT_REACHED and changes nothing', async () => {
    const api = await limited(1);
    const tpl = await api.post('/v1/templates', {
      key: 'fraud-contacts',
      name: 'Fraud on contacts',
      checks: [{ type: 'fraud_database', targets: ['business_contacts'] }],
    });
    assert.equal(tpl.status, 201, JSON.stringify(tpl.body));
    const kase = await api.post('/v1/cases', {
      name: 'limit',
      template_key: 'fraud-contacts',
      companies: [{ name: 'Limit Co', type: 'main' }],
      individuals: [
        { first_name: 'A', last_name: 'B', is_business_contact: true },
        { first_name: 'C', last_name: 'D', relations: [{ roles: ['shareholder'] }] },
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    assert.equal(await checkCount(api), 1);
    const id = kase.body.individuals[1].id;
    const caseStamp = async () => (await api.get(`/v1/cases/${kase.body.id}`)).body.updated_at;
    const stamp = await caseStamp();

    const refused = await api.patch(`/v1/individuals/${id}`, {
      is_business_contact: true,
      email: 'c@example.com',
    });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.code, LIMIT);
    // the detail names the body's field that made the person a target, not an id the body lacks
    assert.deepEqual(
      refused.body.details.map((d: { path: string }) => d.path),
      ['is_business_contact'],
    );
    // nothing half-written: neither the flag, nor the other field, nor a check, nor the case's stamp
    const after = (await api.get(`/v1/individuals/${id}`)).body;
    assert.equal(after.is_business_contact, false);
    assert.equal(after.email, null);
    assert.equal(await checkCount(api), 1);
    assert.equal(await caseStamp(), stamp);

    // a relation's new role is refused the same way
    const widened = await api.patch(`/v1/templates/${tpl.body.id}`, {
      checks: [{ type: 'fraud_database', targets: ['business_contacts', 'legal_representatives'] }],
    });
    assert.equal(widened.status, 200, JSON.stringify(widened.body));
    const rel = kase.body.individuals[1].relations[0];
    const byRole = await api.patch(`/v1/cases/${kase.body.id}/relations/${rel.id}`, {
      roles: ['legal_representative'],
    });
    assert.equal(byRole.status, 400, JSON.stringify(byRole.body));
    assert.equal(byRole.body.code, LIMIT);
    assert.deepEqual(
      byRole.body.details.map((d: { path: string }) => d.path),
      ['roles'],
    );
    assert.deepEqual((await api.get(`/v1/individuals/${id}`)).body.relations[0].roles, ['shareholder']);
    assert.equal(await checkCount(api), 1);

    // with room, the same PATCH passes and creates the check
    await api.patch('/v1/workspace/settings', { checks: { limit: 2 } });
    const ok = await api.patch(`/v1/individuals/${id}`, { is_business_contact: true });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.checks.length, 1);
    assert.equal(await checkCount(api), 2);
  });
});
