import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

async function newCase(api: Client, body: Record<string, unknown> = {}) {
  const res = await api.post('/v1/cases', { name: 'Case', ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function caseRow(id: string) {
  const { ctx } = await getHarness();
  return ctx.db.selectFrom('cases').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

async function tagEvents(workspaceId: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('events')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', 'Case.Updated')
    .where('sub_event', '=', 'Case.TagsUpdated')
    .orderBy('seq')
    .execute();
}

describe('tags', () => {
  test('create, retrieve, list; a duplicate label is a 400 with code CONFLICT (case-insensitive)', async () => {
    const api = await newWorkspace();
    const res = await api.post('/v1/tags', { label: 'High risk' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['created_at', 'id', 'label']);
    assert.equal(res.body.label, 'High risk');
    const got = await api.get(`/v1/tags/${res.body.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, res.body);
    for (const label of ['High risk', 'high RISK']) {
      const dup = await api.post('/v1/tags', { label });
      // the reference documents 201/400 and says the label must be unique: no 409
      assert.equal(dup.status, 400, JSON.stringify(dup.body));
      assert.equal(dup.body.code, 'CONFLICT');
      assert.equal(dup.body.details[0].path, 'label');
    }
    const list = await api.get('/v1/tags');
    assert.equal(list.status, 200);
    assert.deepEqual(list.body, { data: [res.body], pagination: { page: 1, limit: 20, count: 1 } });
  });

  test('bad labels and ids are 400 naming the field; unknown ids are 404', async () => {
    const api = await newWorkspace();
    for (const body of [
      {},
      { label: '' },
      { label: 'x'.repeat(101) },
      { label: 'a,b' },
      { label: 'a/b' },
      { label: 'a\\b' },
      { label: 'a:b' },
      { label: '  ' },
    ]) {
      const res = await api.post('/v1/tags', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.details[0].path, 'label', JSON.stringify(res.body));
    }
    for (const [method, url] of [
      ['get', '/v1/tags/nope'],
      ['patch', '/v1/tags/nope'],
      ['delete', '/v1/tags/nope'],
      ['get', '/v1/cases/nope/tags'],
      ['post', '/v1/cases/nope/tags'],
      ['delete', '/v1/cases/nope/tags'],
    ] as const) {
      const res = await (api as any)[method](url, method === 'get' ? undefined : { label: 'x', tags: ['x'] });
      assert.equal(res.status, 400, `${method} ${url}`);
      assert.equal(res.body.details[0].path, 'id');
    }
    const id = randomUUID();
    assert.equal((await api.get(`/v1/tags/${id}`)).status, 404);
    assert.equal((await api.patch(`/v1/tags/${id}`, { label: 'x' })).status, 404);
    assert.equal((await api.delete(`/v1/tags/${id}`)).status, 404);
    assert.equal((await api.get(`/v1/cases/${id}/tags`)).status, 404);
    assert.equal((await api.post(`/v1/cases/${id}/tags`, { tags: ['x'] })).status, 404);
    assert.equal((await api.delete(`/v1/cases/${id}/tags`, { tags: ['x'] })).status, 404);
    const kase = await newCase(api);
    for (const body of [{}, { tags: [] }, { tags: [''] }, { tags: [1, {}] }]) {
      const res = await api.post(`/v1/cases/${kase.id}/tags`, body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
    const sep = await api.post(`/v1/cases/${kase.id}/tags`, { tags: ['ok', 'a|b'] });
    assert.equal(sep.status, 400);
    assert.equal(sep.body.details[0].path, 'tags[1]');
    assert.deepEqual((await caseRow(kase.id)).tags, [], 'nothing added');
    // a tag id that is not one of the workspace's
    assert.equal((await api.post(`/v1/cases/${kase.id}/tags`, { tags: [randomUUID()] })).status, 404);
  });

  test('list filters, sort and pagination', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const made: Record<string, any> = {};
    for (const label of ['beta', 'Alpha', 'gamma', 'alphabet'])
      made[label] = (await api.post('/v1/tags', { label })).body;
    await ctx.db
      .updateTable('tags')
      .set({ created_at: '2024-03-01T12:00:00Z' })
      .where('id', '=', made.gamma.id)
      .execute();
    const labels = async (q: string) => {
      const res = await api.get(`/v1/tags?${q}`);
      assert.equal(res.status, 200, `${q}: ${JSON.stringify(res.body)}`);
      return res.body.data.map((t: any) => t.label);
    };
    assert.deepEqual(await labels(''), ['gamma', 'beta', 'Alpha', 'alphabet']);
    assert.deepEqual(await labels('sort=label'), ['Alpha', 'alphabet', 'beta', 'gamma']);
    assert.deepEqual(await labels('sort=label.desc'), ['gamma', 'beta', 'alphabet', 'Alpha']);
    assert.deepEqual(await labels('label=beta'), ['beta']);
    assert.deepEqual(await labels('label.not_eq=beta'), ['gamma', 'Alpha', 'alphabet']);
    // labels are case-insensitive (creating "BETA" is a conflict with "beta"): so is the filter
    assert.deepEqual(await labels('label=BETA'), ['beta']);
    assert.deepEqual(await labels('label.eq=alpha'), ['Alpha']);
    assert.deepEqual(await labels('label.not_eq=Beta'), ['gamma', 'Alpha', 'alphabet']);
    assert.deepEqual(await labels('label.like=alpha%25'), ['alphabet']);
    assert.deepEqual(await labels('label.ilike=alpha%25'), ['Alpha', 'alphabet']);
    assert.deepEqual(await labels('created_at=2024-03-01'), ['gamma']);
    assert.deepEqual(await labels('created_at.gt=2024-03-01'), ['beta', 'Alpha', 'alphabet']);
    const page = await api.get('/v1/tags?limit=3&page=2');
    assert.deepEqual(page.body.pagination, { page: 2, limit: 3, count: 4 });
    assert.deepEqual(
      page.body.data.map((t: any) => t.label),
      ['alphabet'],
    );
    const filteredCount = await api.get('/v1/tags?label.ilike=alpha%25&limit=1');
    assert.equal(filteredCount.body.pagination.count, 2);
    for (const q of [
      'label.gt=a',
      'label.in=a,b',
      'created_at=soon',
      'sort=id',
      'sort=label,label.desc',
      'limit=101',
      'page=0',
      'name=x',
    ]) {
      const res = await api.get(`/v1/tags?${q}`);
      assert.equal(res.status, 400, q);
      assert.equal(res.body.code, 'BAD_REQUEST');
    }
  });

  test('case tags: add (by label or id, creating tags), read, remove; events and stored state', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const vip = (await api.post('/v1/tags', { label: 'VIP' })).body;
    const kase = await newCase(api, { tags: ['existing'] });
    const activity = (await caseRow(kase.id)).last_activity_at;

    const added = await api.post(`/v1/cases/${kase.id}/tags`, { tags: ['vip', 'Fintech', 'fintech'] });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.deepEqual(
      added.body.tags.map((t: any) => t.label),
      ['existing', 'VIP', 'Fintech'],
    );
    assert.equal(added.body.tags[1].id, vip.id, 'a label matches the existing tag case-insensitively');
    const row = await caseRow(kase.id);
    assert.deepEqual(row.tags, ['existing', 'VIP', 'Fintech']);
    assert.ok(row.last_activity_at.getTime() > activity.getTime());
    const fintech = await ctx.db
      .selectFrom('tags')
      .selectAll()
      .where('workspace_id', '=', api.workspaceId)
      .where('label', '=', 'Fintech')
      .execute();
    assert.equal(fintech.length, 1, 'the new tag was created once');
    let events = await tagEvents(api.workspaceId);
    assert.equal(events.length, 1);
    assert.equal(events[0].case_id, kase.id);
    assert.deepEqual((events[0].payload as any).case.tags, ['existing', 'VIP', 'Fintech']);

    // adding what is already there changes nothing and emits nothing
    const again = await api.post(`/v1/cases/${kase.id}/tags`, { tags: [vip.id, 'EXISTING'] });
    assert.equal(again.status, 201);
    assert.deepEqual(
      again.body.tags.map((t: any) => t.label),
      ['existing', 'VIP', 'Fintech'],
    );
    assert.equal((await tagEvents(api.workspaceId)).length, 1);

    const read = await api.get(`/v1/cases/${kase.id}/tags`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, added.body);

    const missing = await api.delete(`/v1/cases/${kase.id}/tags`, { tags: ['VIP', 'not-there'] });
    assert.equal(missing.status, 404);
    assert.match(missing.body.message, /tags not found on case/);
    assert.match(missing.body.message, /not-there/);
    assert.deepEqual((await caseRow(kase.id)).tags, ['existing', 'VIP', 'Fintech'], 'nothing removed');

    const removed = await api.delete(`/v1/cases/${kase.id}/tags`, { tags: [vip.id, 'fintech'] });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(
      removed.body.tags.map((t: any) => t.label),
      ['existing'],
    );
    assert.deepEqual((await caseRow(kase.id)).tags, ['existing']);
    events = await tagEvents(api.workspaceId);
    assert.equal(events.length, 2);
    assert.deepEqual((events[1].payload as any).case.tags, ['existing']);
    // the workspace tags stay
    assert.equal((await api.get(`/v1/tags/${vip.id}`)).status, 200);
    // a tag that exists but is not on the case
    const notOnCase = await api.delete(`/v1/cases/${kase.id}/tags`, { tags: [vip.id] });
    assert.equal(notOnCase.status, 404);
    assert.match(notOnCase.body.message, /tags not found on case/);
  });

  test('labels are stored and matched without surrounding blanks: " vip " is the tag vip', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const created = await api.post('/v1/tags', { label: '  vip ' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.label, 'vip');
    const dup = await api.post('/v1/tags', { label: 'VIP  ' });
    assert.equal(dup.status, 400);
    assert.equal(dup.body.code, 'CONFLICT');
    const renamed = await api.patch(`/v1/tags/${created.body.id}`, { label: ' Gold ' });
    assert.equal(renamed.body.label, 'Gold');
    const kase = await newCase(api, { tags: [' gold', 'new one '] });
    assert.deepEqual((await caseRow(kase.id)).tags, ['Gold', 'new one']);
    const added = await api.post(`/v1/cases/${kase.id}/tags`, { tags: ['  NEW ONE'] });
    assert.deepEqual(
      added.body.tags.map((t: any) => t.label),
      ['Gold', 'new one'],
    );
    const patched = await api.patch(`/v1/cases/${kase.id}`, { tags: ['gold ', ' fresh'] });
    assert.deepEqual(patched.body.tags, ['Gold', 'fresh']);
    const removed = await api.delete(`/v1/cases/${kase.id}/tags`, { tags: [' fresh '] });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual((await caseRow(kase.id)).tags, ['Gold']);
    const labels = await ctx.db
      .selectFrom('tags')
      .select('label')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.deepEqual(labels.map((t) => t.label).sort(), ['Gold', 'fresh', 'new one']);
  });

  test('renaming a tag renames it on every case; deleting removes it from every case', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const a = await newCase(api, { tags: ['kyb', 'urgent'] });
    const b = await newCase(api, { tags: ['urgent'] });
    const c = await newCase(api, { tags: ['other'] });
    const foreign = await newCase(other, { tags: ['urgent'] });
    const urgent = (await api.get('/v1/tags?label=urgent')).body.data[0];
    assert.ok(urgent);

    const renamed = await api.patch(`/v1/tags/${urgent.id}`, { label: 'priority' });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.deepEqual(renamed.body, { ...urgent, label: 'priority' });
    assert.deepEqual((await caseRow(a.id)).tags, ['kyb', 'priority']);
    assert.deepEqual((await caseRow(b.id)).tags, ['priority']);
    assert.deepEqual((await caseRow(c.id)).tags, ['other']);
    assert.deepEqual((await caseRow(foreign.id)).tags, ['urgent'], 'other workspace untouched');
    const events = await tagEvents(api.workspaceId);
    assert.deepEqual(events.map((e) => e.case_id).sort(), [a.id, b.id].sort());
    assert.equal((await tagEvents(other.workspaceId)).length, 0);

    // renaming onto another tag's label is a conflict; renaming to itself (or its own case) is fine
    const kyb = (await api.get('/v1/tags?label=kyb')).body.data[0];
    const clash = await api.patch(`/v1/tags/${urgent.id}`, { label: 'KYB' });
    assert.equal(clash.status, 400);
    assert.equal(clash.body.code, 'CONFLICT');
    assert.equal(clash.body.details[0].path, 'label');
    assert.equal((await api.patch(`/v1/tags/${urgent.id}`, { label: 'priority' })).status, 200);
    assert.equal((await api.patch(`/v1/tags/${urgent.id}`, { label: 'Priority' })).status, 200);
    assert.deepEqual((await caseRow(b.id)).tags, ['Priority']);
    const badRename = await api.patch(`/v1/tags/${urgent.id}`, { label: 'a;b' });
    assert.equal(badRename.status, 400);
    assert.equal(badRename.body.details[0].path, 'label');

    const del = await api.delete(`/v1/tags/${kyb.id}`);
    assert.equal(del.status, 204);
    assert.equal((await api.get(`/v1/tags/${kyb.id}`)).status, 404);
    assert.deepEqual((await caseRow(a.id)).tags, ['Priority']);
    const after = await tagEvents(api.workspaceId);
    const last = after[after.length - 1];
    assert.equal(last.case_id, a.id);
    assert.deepEqual((last.payload as any).case.tags, ['Priority']);
  });

  test('a case holds many long tags: create, PATCH and POST …/tags answer 2xx (a 500 before: the tags were in a B-tree index entry); the filter finds them', async () => {
    const api = await newWorkspace();
    // random, so that no compression brings the array under an index entry's 2,704 bytes
    const long = (n: number) =>
      Array.from({ length: n }, () => randomUUID().replaceAll('-', '').repeat(3).slice(0, 96));
    const first = long(40);
    const kase = await newCase(api, { status: 'open', tags: first });
    assert.equal(kase.tags.length, 40);
    const second = long(40);
    const patched = await api.patch(`/v1/cases/${kase.id}`, { tags: [...first, ...second] });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.tags.length, 80);
    const added = await api.post(`/v1/cases/${kase.id}/tags`, { tags: long(60) });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal((await caseRow(kase.id)).tags.length, 140);
    const found = await api.get(`/v1/cases?status=open&tags=${encodeURIComponent(second[7].toLowerCase())}`);
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.deepEqual(
      found.body.data.map((c: { id: string }) => c.id),
      [kase.id],
    );
    assert.equal(found.body.pagination.count, 1);
  });

  test("another workspace's tags and cases are not found", async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const tag = (await api.post('/v1/tags', { label: 'mine' })).body;
    const kase = await newCase(api, { tags: ['mine'] });
    assert.equal((await other.get(`/v1/tags/${tag.id}`)).status, 404);
    assert.equal((await other.patch(`/v1/tags/${tag.id}`, { label: 'theirs' })).status, 404);
    assert.equal((await other.delete(`/v1/tags/${tag.id}`)).status, 404);
    assert.equal((await other.get('/v1/tags')).body.pagination.count, 0);
    assert.equal((await other.get(`/v1/cases/${kase.id}/tags`)).status, 404);
    assert.equal((await other.post(`/v1/cases/${kase.id}/tags`, { tags: ['x'] })).status, 404);
    assert.equal((await other.delete(`/v1/cases/${kase.id}/tags`, { tags: ['mine'] })).status, 404);
    // the other workspace cannot attach this workspace's tag by id to its own case
    const theirs = await newCase(other);
    assert.equal((await other.post(`/v1/cases/${theirs.id}/tags`, { tags: [tag.id] })).status, 404);
    // the same label can exist in both workspaces
    assert.equal((await other.post('/v1/tags', { label: 'mine' })).status, 201);
    assert.equal((await api.get(`/v1/tags/${tag.id}`)).body.label, 'mine');
    assert.deepEqual((await caseRow(kase.id)).tags, ['mine']);
  });
});
