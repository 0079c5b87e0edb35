import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { newWorkspace } from './helpers/harness.ts';

/**
 * The spec makes a case's external_id usable in place of its id in the path. `.` and `..` cannot
 * be: every URL parser removes them as dot segments, encoded or not (`/v1/cases/%2E` is
 * `/v1/cases/` to fetch and to `new URL`), so a client reading case "." would get the case list.
 */
describe('case external_id in the path', () => {
  test('"." and ".." are refused as external_id on create and update (400 naming it); other dots are fine', async () => {
    assert.equal(new URL('http://h/v1/cases/%2E').pathname, '/v1/cases/');
    const api = await newWorkspace();
    for (const external_id of ['.', '..']) {
      const res = await api.post('/v1/cases', { name: 'dots', external_id });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.details[0].path, 'external_id');
      assert.match(res.body.message, /external_id/);
    }
    const list = await api.get('/v1/cases');
    assert.equal(list.body.pagination.count, 0, 'nothing was stored');

    const created = await api.post('/v1/cases', { name: 'dots', external_id: '...' });
    assert.equal(created.status, 201);
    const read = await api.get('/v1/cases/...');
    assert.equal(read.status, 200);
    assert.equal(read.body.id, created.body.id);
    for (const external_id of ['.', '..']) {
      const res = await api.patch(`/v1/cases/${created.body.id}`, { external_id });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.details[0].path, 'external_id');
    }
    const after = await api.get(`/v1/cases/${created.body.id}`);
    assert.equal(after.body.external_id, '...');
    for (const external_id of ['.x', 'a.', './a']) {
      const res = await api.patch(`/v1/cases/${created.body.id}`, { external_id });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
  });

  test('a blank external_id, or one with surrounding spaces, is refused on create and update (400 naming it)', async () => {
    const api = await newWorkspace();
    for (const [external_id, message] of [
      ['  ', 'external_id must not be blank'],
      [' ext-1', 'external_id must not start or end with a space'],
      ['ext-1\t', 'external_id must not start or end with a space'],
      ['\u00a0ext-1', 'external_id must not start or end with a space'],
    ] as const) {
      const res = await api.post('/v1/cases', { name: 'spaces', external_id });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.details[0].path, 'external_id');
      assert.equal(res.body.message, message);
    }
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 0, 'nothing was stored');
    const created = await api.post('/v1/cases', { name: 'spaces', external_id: 'ext 1' });
    assert.equal(created.status, 201, 'a space inside is part of the identifier');
    const padded = await api.patch(`/v1/cases/${created.body.id}`, { external_id: 'ext 1 ' });
    assert.equal(padded.status, 400);
    assert.equal(padded.body.details[0].path, 'external_id');
    assert.equal((await api.get(`/v1/cases/${created.body.id}`)).body.external_id, 'ext 1');
  });

  test("another case's id is no external_id (a path with it would name that case); a uuid of one's own choosing is", async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const target = (await api.post('/v1/cases', { name: 'Target' })).body;
    const refused = await api.post('/v1/cases', { name: 'Shadow', external_id: target.id });
    assert.equal(refused.status, 400, JSON.stringify(refused.body));
    assert.equal(refused.body.details[0].path, 'external_id');
    assert.match(refused.body.message, /is the id of another case/);
    const mine = (await api.post('/v1/cases', { name: 'Mine' })).body;
    const patched = await api.patch(`/v1/cases/${mine.id}`, { external_id: target.id });
    assert.equal(patched.status, 400);
    // the path still names the target, renamed by nobody
    assert.equal((await api.get(`/v1/cases/${target.id}`)).body.name, 'Target');
    // a case's own id, a fresh uuid, or another workspace's case id (no path of this one names it) are fine
    assert.equal((await api.patch(`/v1/cases/${mine.id}`, { external_id: mine.id })).status, 200);
    const theirs = (await other.post('/v1/cases', { name: 'Theirs' })).body;
    assert.equal((await api.post('/v1/cases', { name: 'Crm', external_id: theirs.id })).status, 201);
    assert.equal((await api.post('/v1/cases', { name: 'Crm2', external_id: randomUUID() })).status, 201);
  });
});
