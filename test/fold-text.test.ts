import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { FOLD_FROM, FOLD_LIGATURES, foldText } from '../src/shared/fold-text.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

test("the database's vericase_fold and the service's foldText give the same text for every letter of the table", async () => {
  const { ctx } = await getHarness();
  const samples = [
    ...FOLD_FROM,
    ...FOLD_LIGATURES.map(([c]) => c),
    'Société Générale',
    'Łódź Œuvres & Æther Straße',
    'Ørsted, Đakovo, İzmir',
    'plain ASCII 100%_x\\y',
    'Москва 北京',
  ];
  const { rows } = await sql<{ folded: string[] }>`
    select array_agg(vericase_fold(s) order by n) as folded
    from unnest(cast(${samples} as text[])) with ordinality as u(s, n)`.execute(ctx.db);
  assert.deepEqual(rows[0].folded, samples.map(foldText));
  assert.equal(foldText('Société Générale'), 'Societe Generale');
  assert.equal(foldText('Łódź Œuvres & Æther Straße'), 'Lodz OEuvres & AEther Strasse');
  // other scripts are left as they are
  assert.equal(foldText('Москва 北京'), 'Москва 北京');
});

test('name.search finds a case whatever its case and accents; its text is no pattern', async () => {
  const api = await newWorkspace('search');
  const names = [
    'Société Générale',
    'SOCIETE DU LAC',
    'Łódź Trading',
    'Crème Brûlée SARL',
    '100%_Real',
    '100 Real',
  ];
  const ids = new Map<string, string>();
  for (const name of names) {
    const res = await api.post('/v1/cases', { name, companies: [{ type: 'main', name }] });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    ids.set(name, res.body.id);
  }
  const found = async (q: string) => {
    const res = await api.get(`/v1/cases?name.search=${encodeURIComponent(q)}&sort=name`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.data.map((c: { name: string }) => c.name);
  };
  assert.deepEqual(await found('societe'), ['SOCIETE DU LAC', 'Société Générale']);
  assert.deepEqual(await found('SOCIÉTÉ'), ['SOCIETE DU LAC', 'Société Générale']);
  assert.deepEqual(await found('generale'), ['Société Générale']);
  assert.deepEqual(await found('lodz'), ['Łódź Trading']);
  assert.deepEqual(await found('creme brulee'), ['Crème Brûlée SARL']);
  // % and _ are the characters themselves
  assert.deepEqual(await found('100%'), ['100%_Real']);
  assert.deepEqual(await found('0_r'), []);
  assert.deepEqual(await found('%'), ['100%_Real']);
  // ilike keeps its meaning: accents count there
  const ilike = await api.get(`/v1/cases?name.ilike=${encodeURIComponent('%societe%')}`);
  assert.deepEqual(
    ilike.body.data.map((c: { name: string }) => c.name),
    ['SOCIETE DU LAC'],
  );
  // with the other filters, and in the per-status counts
  const open = await api.get(`/v1/cases?name.search=societe&status=open&external_id.not_eq=x`);
  assert.equal(open.body.pagination.count, 2);
  const counts = await api.get('/v1/case-counts?name.search=societe');
  assert.equal(counts.status, 200, JSON.stringify(counts.body));
  assert.equal(counts.body.all, 2);
  // an empty search is refused, naming it
  const empty = await api.get('/v1/cases?name.search=');
  assert.equal(empty.status, 400);
  assert.equal(empty.body.details[0].path, 'name.search');
  // the operator is the case list's name's only
  assert.equal((await api.get('/v1/cases?external_id.search=x')).status, 400);
});
