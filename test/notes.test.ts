import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

async function newCase(api: Client, name = 'Case') {
  const res = await api.post('/v1/cases', { name });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function eventsOf(workspaceId: string, type: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('events')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('type', '=', type)
    .orderBy('seq')
    .execute();
}

describe('notes', () => {
  test('creates a note and a comment; both are stored, listed and announced', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = await newCase(api);
    const before = (
      await ctx.db
        .selectFrom('cases')
        .select('last_activity_at')
        .where('id', '=', kase.id)
        .executeTakeFirstOrThrow()
    ).last_activity_at;

    const res = await api.post('/v1/notes', { case_id: kase.id, content: '<p>This is a note!</p>' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const note = res.body;
    assert.equal(note.case_id, kase.id);
    assert.equal(note.content, '<p>This is a note!</p>');
    assert.deepEqual(note.comments, []);
    assert.equal(note.author, null);
    assert.equal(note.author_type, 'api');
    assert.ok(note.created_at && note.updated_at);

    const com = await api.post(`/v1/notes/${note.id}/comments`, { content: 'A comment' });
    assert.equal(com.status, 201, JSON.stringify(com.body));
    assert.equal(com.body.note_id, note.id);
    assert.equal(com.body.content, '<p>A comment</p>');
    assert.equal(com.body.author, null);
    assert.equal(com.body.author_type, 'api');

    const stored = await ctx.db
      .selectFrom('notes')
      .selectAll()
      .where('id', '=', note.id)
      .executeTakeFirstOrThrow();
    assert.equal(stored.workspace_id, api.workspaceId);
    assert.equal(stored.author_type, 'api');
    const storedComment = await ctx.db
      .selectFrom('note_comments')
      .selectAll()
      .where('id', '=', com.body.id)
      .executeTakeFirstOrThrow();
    assert.equal(storedComment.note_id, note.id);

    const created = await eventsOf(api.workspaceId, 'Note.Created');
    assert.equal(created.length, 1);
    assert.equal(created[0].case_id, kase.id);
    assert.deepEqual((created[0].payload as any).note, note);
    const commented = await eventsOf(api.workspaceId, 'NoteComment.Created');
    assert.equal(commented.length, 1);
    assert.equal(commented[0].case_id, kase.id);
    assert.deepEqual((commented[0].payload as any).noteComment, com.body);
    assert.equal((commented[0].payload as any).note.id, com.body.note_id);
    assert.deepEqual((commented[0].payload as any).note.comments.at(-1), com.body);

    const after = (
      await ctx.db
        .selectFrom('cases')
        .select('last_activity_at')
        .where('id', '=', kase.id)
        .executeTakeFirstOrThrow()
    ).last_activity_at;
    assert.ok(after.getTime() > before.getTime(), 'last_activity_at moved');

    const list = await api.get(`/v1/cases/${kase.id}/notes`);
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.equal(list.body.pagination.count, 1);
    assert.equal(list.body.data[0].id, note.id);
    assert.deepEqual(list.body.data[0].comments, [com.body]);
  });

  test('bad bodies and unknown ids', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    const cases: [unknown, string][] = [
      [{ content: 'x' }, 'case_id'],
      [{ case_id: kase.id }, 'content'],
      [{ case_id: 'not-a-uuid', content: 'x' }, 'case_id'],
      [{ case_id: kase.id, content: '' }, 'content'],
      [{ case_id: kase.id, content: '<p> </p>' }, 'content'],
      [{ case_id: kase.id, content: `<p>${'a'.repeat(3001)}</p>` }, 'content'],
    ];
    for (const [body, path] of cases) {
      const res = await api.post('/v1/notes', body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.ok(
        res.body.details.some((d: any) => d.path === path),
        `${path} in ${JSON.stringify(res.body)}`,
      );
    }
    // 3000 characters of text are fine, whatever the markup around them
    assert.equal(
      (await api.post('/v1/notes', { case_id: kase.id, content: `<p><b>${'a'.repeat(3000)}</b></p>` }))
        .status,
      201,
    );

    const unknownCase = await api.post('/v1/notes', { case_id: randomUUID(), content: 'x' });
    assert.equal(unknownCase.status, 404);
    assert.equal(unknownCase.body.code, 'NOT_FOUND');
    assert.equal((await api.post(`/v1/notes/${randomUUID()}/comments`, { content: 'x' })).status, 404);
    const badNote = await api.post('/v1/notes/nope/comments', { content: 'x' });
    assert.equal(badNote.status, 400);
    assert.equal(badNote.body.details[0].path, 'id');
    const note = (await api.post('/v1/notes', { case_id: kase.id, content: 'x' })).body;
    const emptyComment = await api.post(`/v1/notes/${note.id}/comments`, { content: '' });
    assert.equal(emptyComment.status, 400);
    assert.equal(emptyComment.body.details[0].path, 'content');
    assert.equal((await api.get(`/v1/cases/${randomUUID()}/notes`)).status, 404);
    const badCase = await api.get('/v1/cases/nope/notes');
    assert.equal(badCase.status, 400);
    assert.equal(badCase.body.details[0].path, 'id');
    // a deleted case has no notes to show or take
    assert.equal((await api.delete(`/v1/cases/${kase.id}`)).status, 204);
    assert.equal((await api.get(`/v1/cases/${kase.id}/notes`)).status, 404);
    assert.equal((await api.post('/v1/notes', { case_id: kase.id, content: 'x' })).status, 404);
    assert.equal((await api.post(`/v1/notes/${note.id}/comments`, { content: 'x' })).status, 404);
  });

  test("another workspace's case and note are not found, and nothing is written", async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = await newCase(api);
    const note = (await api.post('/v1/notes', { case_id: kase.id, content: 'mine' })).body;
    assert.equal((await other.post('/v1/notes', { case_id: kase.id, content: 'x' })).status, 404);
    assert.equal((await other.post(`/v1/notes/${note.id}/comments`, { content: 'x' })).status, 404);
    assert.equal((await other.get(`/v1/cases/${kase.id}/notes`)).status, 404);
    const notes = await ctx.db.selectFrom('notes').select('id').where('case_id', '=', kase.id).execute();
    assert.equal(notes.length, 1);
    const comments = await ctx.db
      .selectFrom('note_comments')
      .select('id')
      .where('note_id', '=', note.id)
      .execute();
    assert.equal(comments.length, 0);
    assert.equal((await eventsOf(other.workspaceId, 'Note.Created')).length, 0);
  });

  test('list: comments per note, filters, sort, pagination and bad parameters', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = await newCase(api);
    const otherCase = await newCase(api, 'Other');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await api.post('/v1/notes', { case_id: kase.id, content: `note ${i}` })).body.id);
    }
    await api.post('/v1/notes', { case_id: otherCase.id, content: 'elsewhere' });
    for (const c of ['c1', 'c2'])
      assert.equal((await api.post(`/v1/notes/${ids[1]}/comments`, { content: c })).status, 201);
    assert.equal((await api.post(`/v1/notes/${ids[3]}/comments`, { content: 'c3' })).status, 201);
    // spread the dates so the filters have something to tell apart
    await ctx.db
      .updateTable('notes')
      .set({ created_at: '2024-01-10T10:00:00Z', updated_at: '2024-06-01T10:00:00Z' })
      .where('id', '=', ids[0])
      .execute();
    await ctx.db
      .updateTable('notes')
      .set({ created_at: '2024-01-11T10:00:00Z', updated_at: '2024-02-01T10:00:00Z' })
      .where('id', '=', ids[1])
      .execute();

    const all = await api.get(`/v1/cases/${kase.id}/notes`);
    assert.equal(all.status, 200);
    assert.equal(all.body.pagination.count, 5);
    assert.deepEqual(
      all.body.data.map((n: any) => n.id),
      ids,
    );
    assert.deepEqual(
      all.body.data[1].comments.map((c: any) => c.content),
      ['<p>c1</p>', '<p>c2</p>'],
    );
    assert.deepEqual(
      all.body.data[3].comments.map((c: any) => c.content),
      ['<p>c3</p>'],
    );
    assert.deepEqual(all.body.data[0].comments, []);

    const page = await api.get(`/v1/cases/${kase.id}/notes?limit=2&page=2`);
    assert.deepEqual(page.body.pagination, { page: 2, limit: 2, count: 5 });
    assert.deepEqual(
      page.body.data.map((n: any) => n.id),
      ids.slice(2, 4),
    );
    assert.deepEqual(
      page.body.data[1].comments.map((c: any) => c.content),
      ['<p>c3</p>'],
    );

    const desc = await api.get(`/v1/cases/${kase.id}/notes?sort=created_at.desc`);
    assert.deepEqual(
      desc.body.data.map((n: any) => n.id),
      [...ids].reverse(),
    );
    const byUpdated = await api.get(`/v1/cases/${kase.id}/notes?sort=updated_at&limit=2`);
    assert.deepEqual(
      byUpdated.body.data.map((n: any) => n.id),
      [ids[1], ids[0]],
    );

    const day = await api.get(`/v1/cases/${kase.id}/notes?created_at=2024-01-10`);
    assert.deepEqual(
      day.body.data.map((n: any) => n.id),
      [ids[0]],
    );
    assert.equal(day.body.pagination.count, 1);
    const before = await api.get(`/v1/cases/${kase.id}/notes?created_at.lt=2024-02-01`);
    assert.deepEqual(
      before.body.data.map((n: any) => n.id),
      [ids[0], ids[1]],
    );
    const updated = await api.get(
      `/v1/cases/${kase.id}/notes?updated_at.gte=2024-06-01&updated_at.lt=2024-06-02T00:00:00Z`,
    );
    assert.deepEqual(
      updated.body.data.map((n: any) => n.id),
      [ids[0]],
    );

    for (const q of [
      'created_at.like=2024',
      'created_at=yesterday',
      'sort=content',
      'sort=created_at,created_at',
      'limit=0',
      'limit=101',
      'page=0',
      'content=x',
    ]) {
      const res = await api.get(`/v1/cases/${kase.id}/notes?${q}`);
      assert.equal(res.status, 400, `${q}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.code, 'BAD_REQUEST');
    }
  });

  test('comments are loaded in one query for the whole page', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const kase = await newCase(api);
    for (let i = 0; i < 4; i++) {
      const note = (await api.post('/v1/notes', { case_id: kase.id, content: `n${i}` })).body;
      await api.post(`/v1/notes/${note.id}/comments`, { content: `c${i}` });
    }
    const executor = ctx.db.getExecutor() as any;
    const original = executor.executeQuery;
    const seen: string[] = [];
    executor.executeQuery = function (this: unknown, query: { sql: string }, ...rest: unknown[]) {
      seen.push(query.sql);
      return original.call(this, query, ...rest);
    };
    try {
      const res = await api.get(`/v1/cases/${kase.id}/notes`);
      assert.equal(res.status, 200);
      assert.equal(res.body.data.length, 4);
    } finally {
      executor.executeQuery = original;
    }
    const commentQueries = seen.filter((s) => /from "note_comments"/.test(s));
    assert.equal(commentQueries.length, 1, seen.join('\n'));
  });

  test('a case holds at most 25 notes and a note at most 50 comments', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    let noteId = '';
    for (let i = 0; i < 25; i++) {
      const res = await api.post('/v1/notes', { case_id: kase.id, content: `n${i}` });
      assert.equal(res.status, 201);
      noteId = res.body.id;
    }
    const over = await api.post('/v1/notes', { case_id: kase.id, content: 'one too many' });
    assert.equal(over.status, 400);
    assert.match(over.body.message, /Maximum items reached/);
    for (let i = 0; i < 50; i++) {
      assert.equal((await api.post(`/v1/notes/${noteId}/comments`, { content: `c${i}` })).status, 201);
    }
    const overComment = await api.post(`/v1/notes/${noteId}/comments`, { content: 'one too many' });
    assert.equal(overComment.status, 400);
    assert.match(overComment.body.message, /Maximum items reached/);
    assert.equal((await api.get(`/v1/cases/${kase.id}/notes?limit=100`)).body.data.length, 25);
  });
});
