/**
 * A company or individual added to a case with `relations` changes the case's relations as much as
 * POST /v1/cases/{id}/relations does: one `Case.Updated` / `Case.RelationsUpdated` per relation, after
 * the entity's own `*.Created` (a webhook following relations saw only `Individual.Created`).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getHarness, newWorkspace } from './helpers/harness.ts';

async function eventsAfter(workspaceId: string, seq: number) {
  const { ctx } = await getHarness();
  const rows = await ctx.db
    .selectFrom('events')
    .select(['type', 'sub_event', 'payload', 'seq'])
    .where('workspace_id', '=', workspaceId)
    .where('seq', '>', String(seq) as never)
    .orderBy('seq')
    .execute();
  return rows.map((e) => ({
    seq: Number(e.seq),
    type: e.type,
    sub_event: e.sub_event,
    payload: e.payload as Record<string, any>,
  }));
}

describe('relations brought by a new entity', () => {
  test('POST /v1/individuals and /v1/companies with relations: one Case.RelationsUpdated each', async () => {
    const api = await newWorkspace('entity-relations');
    const kase = await api.post('/v1/cases', {
      name: 'Relations',
      companies: [{ name: 'Main SAS', country: 'FR' }],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const mainId = kase.body.companies[0].id;
    const start = (await eventsAfter(api.workspaceId, 0)).at(-1)?.seq ?? 0;

    const holding = await api.post('/v1/companies', {
      case_id: kase.body.id,
      type: 'affiliated',
      name: 'Holding SA',
      country: 'FR',
      relations: [{ roles: ['shareholder'], ownership_percentage: 60 }],
    });
    assert.equal(holding.status, 201, JSON.stringify(holding.body));
    const person = await api.post('/v1/individuals', {
      case_id: kase.body.id,
      first_name: 'Rel',
      last_name: 'Nested',
      relations: [
        { roles: ['legal_representative'], position: 'CFO' },
        { to_company_id: holding.body.id, roles: ['shareholder'], ownership_percentage: 100 },
      ],
    });
    assert.equal(person.status, 201, JSON.stringify(person.body));
    const lonely = await api.post('/v1/individuals', {
      case_id: kase.body.id,
      first_name: 'No',
      last_name: 'Relation',
    });
    assert.equal(lonely.status, 201);

    const events = await eventsAfter(api.workspaceId, start);
    assert.deepEqual(
      events.map((e) => e.sub_event ?? e.type),
      [
        'Company.Created',
        'Case.RelationsUpdated',
        'Individual.Created',
        'Case.RelationsUpdated',
        'Case.RelationsUpdated',
        'Individual.Created',
      ],
    );
    const relations = events.filter((e) => e.sub_event === 'Case.RelationsUpdated');
    assert.deepEqual(
      relations.map((e) => e.payload.case_relation.id),
      [...holding.body.relations, ...person.body.relations].map((r: { id: string }) => r.id),
    );
    assert.deepEqual(relations[0].payload.case_relation.to_company_id, mainId);
    for (const e of relations) {
      assert.equal(e.type, 'Case.Updated');
      assert.equal(e.payload.case.id, kase.body.id);
    }
  });
});
