import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { createConsoleUser, signInHeaders } from './helpers/console-session.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

// The first admin a start creates is admin@localhost (src/workspaces/bootstrap.ts): an address
// without a dot in its domain. Every answer that names such a user must still be given: the
// nested user's e-mail failed the serializer's e-mail format, a 500 after the write had committed,
// and every later read of the case, its notes or its activity answered 500 too.
test('a console user whose e-mail has a dotless domain can review, write notes, and be read back', async () => {
  const { app, ctx } = await getHarness();
  const api = await newWorkspace();
  const email = `ops-${randomUUID().slice(0, 8)}@localhost`;
  const user = await createConsoleUser(ctx, api.workspaceId, { role: 'admin', email });
  const headers = await signInHeaders(app, user.email, user.password);
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() };
  };
  const kase = (await api.post('/v1/cases', { name: 'Local admin case' })).body;
  const note = await call('POST', '/v1/notes', { case_id: kase.id, content: 'Checked by phone' });
  assert.equal(note.status, 201, JSON.stringify(note.body));
  const review = await call('POST', `/v1/cases/${kase.id}/reviews`, { status: 'approved', comment: 'ok' });
  assert.equal(review.status, 201, JSON.stringify(review.body));
  for (const url of [
    '/v1/cases',
    `/v1/cases/${kase.id}`,
    `/v1/cases/${kase.id}/notes`,
    `/v1/activities?case_id=${kase.id}`,
  ]) {
    const res = await api.get(url);
    assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
  }
  const notes = await api.get(`/v1/cases/${kase.id}/notes`);
  assert.equal(notes.body.data[0].author.email, email);
  const audit = await api.get(`/v1/audit-log?resource_id=${kase.id}`);
  assert.ok(
    audit.body.data.every((e: { status_code: number }) => e.status_code < 500),
    JSON.stringify(audit.body),
  );
});
