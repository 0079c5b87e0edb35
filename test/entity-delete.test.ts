import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

/** The workspace's events in order, with the relation a `Case.RelationsUpdated` carries. */
async function eventsOf(workspaceId: string) {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select(['type', 'sub_event', 'payload', 'seq'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .execute();
  return rows.map((e) => ({
    name: e.sub_event ?? e.type,
    relation: (e.payload as any).case_relation as Record<string, any> | undefined,
    payload: e.payload as any,
  }));
}

async function relationRowsTouching(id: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('relations')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('from_company_id', '=', id),
        eb('from_individual_id', '=', id),
        eb('to_company_id', '=', id),
      ]),
    )
    .execute();
}

describe('deleting a company or an individual keeps the case graph consistent', () => {
  test('a company goes with every relation touching it, each announced as deleted; entities left without a relation stay listed', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const main = c.companies.find((x: any) => x.type === 'main');
    const holding = c.companies.find((x: any) => x.name === 'Acme Holding GmbH');
    const fund = c.companies.find((x: any) => x.name === 'Fund LP');
    const ubo = c.individuals.find((x: any) => x.last_name === 'Turing');
    // holding → main, fund → holding, Turing → holding
    const touching = [holding.relations[0].id, fund.relations[0].id, ubo.relations[0].id];
    assert.equal(fund.relations[0].to_company_id, holding.id);
    assert.equal(ubo.relations[0].to_company_id, holding.id);

    const res = await api.delete(`/v1/companies/${holding.id}`);
    assert.equal(res.status, 204, JSON.stringify(res.body));

    // stored graph: no relation names the deleted company, the others are untouched
    assert.deepEqual(await relationRowsTouching(holding.id), []);
    const after = (await api.get(`/v1/cases/${c.id}`)).body;
    assert.deepEqual(after.companies.map((x: any) => x.id).sort(), [main.id, fund.id].sort());
    const ends = [...after.companies, ...after.individuals].flatMap((e: any) =>
      e.relations.map((r: any) => r.to_company_id),
    );
    assert.ok(!ends.includes(holding.id), `no relation points at the deleted company: ${ends}`);
    // Fund LP and Turing lost their only relation: they stay in the case, listed, with none
    assert.deepEqual(after.companies.find((x: any) => x.id === fund.id).relations, []);
    assert.deepEqual(after.individuals.find((x: any) => x.id === ubo.id).relations, []);
    assert.equal((await api.get(`/v1/individuals/${ubo.id}`)).status, 200);
    assert.equal((await api.get(`/v1/companies/${fund.id}`)).body.relations.length, 0);
    const listed = await api.get(`/v1/individuals?last_name=Turing`);
    assert.deepEqual(
      listed.body.data.map((x: any) => x.id),
      [ubo.id],
    );

    // events: one Case.RelationsUpdated (deleted) per removed relation, then Company.Deleted
    const events = await eventsOf(api.workspaceId);
    const removed = events.filter((e) => e.name === 'Case.RelationsUpdated' && e.relation?.deleted);
    assert.deepEqual(removed.map((e) => e.relation?.id).sort(), [...touching].sort());
    for (const e of removed) assert.equal(e.payload.case.id, c.id);
    const deletedAt = events.findIndex((e) => e.name === 'Company.Deleted');
    assert.ok(deletedAt >= 0, 'Company.Deleted recorded');
    assert.equal(events[deletedAt].payload.company.id, holding.id);
    assert.ok(
      removed.every((e) => events.indexOf(e) < deletedAt),
      'the relations are announced before the company',
    );

    // the activity log reads the relation events naming the deleted company
    const activities = await api.get('/v1/activities?limit=100');
    assert.equal(activities.status, 200, JSON.stringify(activities.body));

    // a company left without relation can be attached again (not a broken entity)
    const again = await api.post(`/v1/cases/${c.id}/relations`, {
      from_individual_id: ubo.id,
      roles: ['shareholder'],
    });
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.body.to_company_id, main.id);
  });

  test('an individual goes with its relations, each announced as deleted; a company left without one stays', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const main = c.companies.find((x: any) => x.type === 'main');
    const ceo = c.individuals.find((x: any) => x.last_name === 'Lovelace');
    // a company whose only relation is the CEO's, pointing at it
    const shell = await api.post('/v1/companies', {
      case_id: c.id,
      type: 'affiliated',
      name: 'Shell SARL',
      relations: [{ to_company_id: main.id }],
    });
    assert.equal(shell.status, 201, JSON.stringify(shell.body));
    const toShell = await api.post(`/v1/cases/${c.id}/relations`, {
      from_individual_id: ceo.id,
      to_company_id: shell.body.id,
    });
    assert.equal(toShell.status, 201, JSON.stringify(toShell.body));
    assert.equal((await api.delete(`/v1/cases/${c.id}/relations/${shell.body.relations[0].id}`)).status, 204);

    assert.equal((await api.delete(`/v1/individuals/${ceo.id}`)).status, 204);
    assert.deepEqual(await relationRowsTouching(ceo.id), []);
    const after = (await api.get(`/v1/cases/${c.id}`)).body;
    assert.ok(!after.individuals.some((x: any) => x.id === ceo.id));
    assert.deepEqual(after.companies.find((x: any) => x.id === shell.body.id).relations, []);

    const events = await eventsOf(api.workspaceId);
    const removed = events.filter((e) => e.name === 'Case.RelationsUpdated' && e.relation?.deleted);
    assert.deepEqual(
      removed.map((e) => e.relation?.id).sort(),
      [ceo.relations[0].id, toShell.body.id, shell.body.relations[0].id].sort(),
    );
    const deletedAt = events.findIndex((e) => e.name === 'Individual.Deleted');
    assert.ok(deletedAt > events.indexOf(removed[removed.length - 1]));
  });

  test('the main company is refused while the case has other entities, saying why; alone it goes', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const main = c.companies.find((x: any) => x.type === 'main');
    const refused = await api.delete(`/v1/companies/${main.id}`);
    assert.equal(refused.status, 400);
    assert.match(refused.body.message, /main company cannot be deleted/);
    assert.deepEqual(
      refused.body.details.map((d: { path: string }) => d.path),
      ['id'],
    );
    assert.equal((await api.get(`/v1/cases/${c.id}`)).body.companies.length, 3);

    const lone = (await api.post('/v1/cases', { name: 'Lone', companies: [{ name: 'Solo SAS' }] })).body;
    assert.equal((await api.delete(`/v1/companies/${lone.companies[0].id}`)).status, 204);
    assert.deepEqual((await api.get(`/v1/cases/${lone.id}`)).body.companies, []);
  });
});
