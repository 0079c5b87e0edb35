/**
 * A case's assignee is an active reviewer or admin of its workspace (src/cases/assignee.ts): any
 * string was stored before, and the console then offered a mistyped id, a viewer or another
 * workspace's user as an assignee nobody was.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createConsoleUser } from './helpers/console-session.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

describe('case assignee', () => {
  test('a reviewer or an admin of the workspace; anything else is a 400 naming assignee_id, nothing written', async () => {
    const api = await newWorkspace('assignee');
    const { ctx } = await getHarness();
    const reviewer = await createConsoleUser(ctx, api.workspaceId, { role: 'reviewer' });
    const admin = await createConsoleUser(ctx, api.workspaceId, { role: 'admin' });
    const viewer = await createConsoleUser(ctx, api.workspaceId, { role: 'viewer' });
    const gone = await createConsoleUser(ctx, api.workspaceId, { role: 'reviewer' });
    await ctx.db.updateTable('users').set({ suspended_at: new Date() }).where('id', '=', gone.id).execute();
    const other = await newWorkspace('assignee-other');
    const foreign = await createConsoleUser(ctx, other.workspaceId, { role: 'admin' });

    const created = await api.post('/v1/cases', { name: 'Assigned', assignee_id: reviewer.id });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.assignee.id, reviewer.id);
    // an id in capitals is the user's: stored as the id is written (it read as nobody's)
    const moved = await api.patch(`/v1/cases/${created.body.id}`, { assignee_id: admin.id.toUpperCase() });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.assignee_id, admin.id);
    assert.equal((await api.get(`/v1/cases/${created.body.id}`)).body.assignee.id, admin.id);
    assert.equal((await api.get(`/v1/cases?assignee_id=${admin.id}`)).body.data[0].id, created.body.id);

    const refusals: [string, RegExp][] = [
      ['not-a-uuid', /must be the id \(a UUID\) of a user of this workspace/],
      ['00000000-0000-4000-8000-000000000000', /no user of this workspace has the id/],
      [foreign.id, /no user of this workspace has the id/],
      [viewer.id, /is a viewer; a case is assigned to a reviewer or an admin/],
      [gone.id, /is suspended/],
    ];
    const before = await api.get('/v1/cases?count=exact');
    for (const [assignee_id, message] of refusals) {
      const patched = await api.patch(`/v1/cases/${created.body.id}`, { assignee_id });
      assert.equal(patched.status, 400, `${assignee_id}: ${JSON.stringify(patched.body)}`);
      assert.deepEqual(
        patched.body.details.map((d: { path: string }) => d.path),
        ['assignee_id'],
      );
      assert.match(patched.body.message, message);
      const posted = await api.post('/v1/cases', { name: 'Refused', assignee_id });
      assert.equal(posted.status, 400, `${assignee_id}: ${JSON.stringify(posted.body)}`);
      assert.equal(posted.body.details[0].path, 'assignee_id');
    }
    assert.equal((await api.get(`/v1/cases/${created.body.id}`)).body.assignee_id, admin.id);
    assert.equal(
      (await api.get('/v1/cases?count=exact')).body.pagination.count,
      before.body.pagination.count,
    );
    // unassigned again
    const cleared = await api.patch(`/v1/cases/${created.body.id}`, { assignee_id: null });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.assignee_id, null);
  });
});
