import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getHarness, newWorkspace } from './helpers/harness.ts';

describe('concurrency', () => {
  test('many checks created at once in one case all succeed, and the case flags add up', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const c = (
      await api.post('/v1/cases', {
        name: 'busy',
        companies: [{ name: 'Main', country: 'FR' }],
        individuals: Array.from({ length: 4 }, (_, i) => ({
          first_name: `P${i}`,
          last_name: i % 2 ? 'Inconclusive' : 'Curie',
          birth_date: '1980-01-01',
          address: { country: 'FR' },
          relations: [{ roles: ['shareholder'] }],
        })),
      })
    ).body;
    const results = await Promise.all(
      [...c.individuals, ...c.individuals].map((p: any) =>
        api.post('/v1/checks/ekyc', { individual_id: p.id }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      Array(8).fill(201),
      JSON.stringify(results.find((r) => r.status !== 201)?.body),
    );
    const stored = await ctx.db.selectFrom('checks').select('status').where('case_id', '=', c.id).execute();
    assert.equal(stored.length, 8);
    const got = (await api.get(`/v1/cases/${c.id}`)).body;
    assert.equal(got.reviewer_has_actions, true);
    assert.ok(got.flags.includes('for_review'));
    assert.ok(!got.flags.includes('all_checks_approved'));
  });

  test('concurrent updates of one case and its entities do not deadlock', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', { name: 'x', companies: [{ name: 'Main' }] })).body;
    const ops = Array.from({ length: 10 }, (_, i) =>
      i % 3 === 0
        ? api.patch(`/v1/cases/${c.id}`, { name: `n${i}` })
        : i % 3 === 1
          ? api.post('/v1/individuals', {
              case_id: c.id,
              first_name: 'a',
              last_name: `b${i}`,
              relations: [{}],
            })
          : api.post('/v1/notes', { case_id: c.id, content: `note ${i}` }),
    );
    const res = await Promise.all(ops);
    for (const r of res) assert.ok(r.status < 300, JSON.stringify(r.body));
  });
});
