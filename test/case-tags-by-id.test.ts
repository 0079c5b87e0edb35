import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newWorkspace } from './helpers/harness.ts';

/**
 * The reference's case body takes `tags` as "Either tag `id`, or tag `label`" (CaseCreate), as
 * POST /v1/cases/{id}/tags does here. POST and PATCH /v1/cases used to take an id for a new
 * label: a tag named after the uuid was created and put on the case.
 */
describe('case tags given by id', () => {
  test('POST and PATCH /v1/cases take a tag id for that tag; an unknown id is a 400 naming the entry', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const vip = (await api.post('/v1/tags', { label: 'VIP' })).body;
    const eu = (await api.post('/v1/tags', { label: 'EU' })).body;
    const foreign = (await other.post('/v1/tags', { label: 'Theirs' })).body;

    const created = await api.post('/v1/cases', {
      name: 'by id',
      tags: [vip.id, 'new one', eu.id.toUpperCase()],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.tags, ['VIP', 'new one', 'EU']);

    const updated = await api.patch(`/v1/cases/${created.body.id}`, { tags: [eu.id, 'vip'] });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.deepEqual(updated.body.tags, ['EU', 'VIP']);

    for (const unknown of ['00000000-0000-4000-8000-000000000000', foreign.id]) {
      const res = await api.post('/v1/cases', { name: 'unknown tag', tags: ['ok', unknown] });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.details[0].path, 'tags[1]');
      const upd = await api.patch(`/v1/cases/${created.body.id}`, { tags: [unknown] });
      assert.equal(upd.status, 400, JSON.stringify(upd.body));
      assert.equal(upd.body.details[0].path, 'tags[0]');
    }
    // no tag was created for an id, nor any case for a refused body
    const labels = (await api.get('/v1/tags')).body.data.map((t: any) => t.label);
    assert.deepEqual(labels.sort(), ['EU', 'VIP', 'new one']);
    assert.equal((await api.get('/v1/cases')).body.pagination.count, 1);
    assert.deepEqual((await api.get(`/v1/cases/${created.body.id}`)).body.tags, ['EU', 'VIP']);
    assert.equal((await other.get('/v1/tags')).body.pagination.count, 1);
  });
});
