import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { pruneIdempotencyKeys } from '../src/http/idempotency-prune.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

const body = {
  name: 'Retention case',
  companies: [{ type: 'main', name: 'Kept SAS', country: 'FR', registration_number: '552100554' }],
};

/** Moves a key's row back in time, as if it had been made `hours` ago. */
async function age(workspaceId: string, key: string, hours: number) {
  const { ctx } = await getHarness();
  await ctx.db
    .updateTable('idempotency_keys')
    .set({ created_at: sql`now() - ${sql.lit(`${hours} hours`)}::interval` })
    .where('workspace_id', '=', workspaceId)
    .where('key', '=', key)
    .execute();
}

async function keyRows(workspaceId: string) {
  const { ctx } = await getHarness();
  return (
    await ctx.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('workspace_id', '=', workspaceId)
      .orderBy('key')
      .execute()
  ).map((r) => r.key);
}

test('an Idempotency-Key is kept 24 hours: within them a retry is replayed, after them it is a new request', async () => {
  const { ctx } = await getHarness();
  assert.equal(ctx.config.idempotencyRetentionHours, 24);
  const api = await newWorkspace('idem-retention');
  const first = await api.post('/v1/cases', body, { 'idempotency-key': 'retention-1' });
  assert.equal(first.status, 201, JSON.stringify(first.body));

  // 23 hours later: the same answer, nothing written
  await age(api.workspaceId, 'retention-1', 23);
  const replay = await api.post('/v1/cases', body, { 'idempotency-key': 'retention-1' });
  assert.equal(replay.status, 201);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.body.id, first.body.id);
  // and another body under that key is still the 409
  const other = await api.post('/v1/cases', { ...body, name: 'Other' }, { 'idempotency-key': 'retention-1' });
  assert.equal(other.status, 409);

  // 25 hours later: the key is free again (before the hourly prune has run): a new case, keyed anew
  await age(api.workspaceId, 'retention-1', 25);
  const again = await api.post('/v1/cases', { ...body, name: 'Other' }, { 'idempotency-key': 'retention-1' });
  assert.equal(again.status, 201, JSON.stringify(again.body));
  assert.equal(again.headers['idempotent-replayed'], undefined);
  assert.notEqual(again.body.id, first.body.id);
  assert.equal(again.body.name, 'Other');
  const cases = await api.get('/v1/cases?limit=10');
  assert.equal(cases.body.pagination.count, 2);
  // the new request's answer is the one kept now
  const replayAgain = await api.post(
    '/v1/cases',
    { ...body, name: 'Other' },
    { 'idempotency-key': 'retention-1' },
  );
  assert.equal(replayAgain.headers['idempotent-replayed'], 'true');
  assert.equal(replayAgain.body.id, again.body.id);
});

test('the hourly prune drops the keys past their retention and keeps the others', async () => {
  const { ctx } = await getHarness();
  const api = await newWorkspace('idem-prune');
  for (const key of ['old', 'recent']) {
    const res = await api.post('/v1/cases', { ...body, name: key }, { 'idempotency-key': key });
    assert.equal(res.status, 201);
  }
  await age(api.workspaceId, 'old', 30);
  await age(api.workspaceId, 'recent', 2);
  assert.deepEqual(await keyRows(api.workspaceId), ['old', 'recent']);
  assert.ok((await pruneIdempotencyKeys(ctx.db, 24)) >= 1);
  assert.deepEqual(await keyRows(api.workspaceId), ['recent']);
  // 0 keeps every key
  await age(api.workspaceId, 'recent', 1000);
  assert.equal(await pruneIdempotencyKeys(ctx.db, 0), 0);
  assert.deepEqual(await keyRows(api.workspaceId), ['recent']);
});
