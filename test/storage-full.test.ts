/**
 * A full disk, under the database (PostgreSQL's disk_full, 53100) or under the files (ENOSPC): the
 * request is answered 503 with the error body, a message that says what is wrong and
 * `retry-after: 60`, not 500 "An unexpected error occurred". Measured with the embedded database on
 * a full filesystem (session 32): every write failed with 53100, the process stayed up and went on by
 * itself once space was freed. Here the failures are injected where the routes meet them: a list's
 * count statement, and the storage an upload streams to.
 */
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { test } from 'node:test';
import { getStorage } from '../src/files/storage.ts';
import { uploadBytes } from './helpers/files.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

const MESSAGE = "The server's storage is full: nothing can be recorded until space is freed";

test('the database disk full (53100): 503, the message, retry-after 60', async () => {
  const { app, ctx } = await getHarness();
  const api = await newWorkspace('disk-full');
  assert.equal((await api.get('/v1/cases')).status, 200);
  const executeQuery = ctx.db.executeQuery;
  ctx.db.executeQuery = (() =>
    Promise.reject(
      Object.assign(new Error('could not extend file "base/5/16475": No space left on device'), {
        code: '53100',
      }),
    )) as typeof executeQuery;
  try {
    const res = await app.inject({
      method: 'GET',
      url: '/v1/cases',
      headers: { 'x-service-api-key': api.key },
    });
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.headers['retry-after'], '60');
    assert.equal(res.json().code, 'SERVICE_UNAVAILABLE');
    assert.equal(res.json().message, MESSAGE);
  } finally {
    ctx.db.executeQuery = executeQuery;
  }
  assert.equal((await api.get('/v1/cases')).status, 200, 'answers again once it can write');
});

test('the files disk full (ENOSPC) during an upload: 503, the message, and no file row left', async () => {
  const { ctx } = await getHarness();
  const api = await newWorkspace('files-full');
  const storage = getStorage(ctx);
  ctx.storage = {
    kind: storage.kind,
    async put(_key: string, body: Readable) {
      body.resume();
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    },
    get: (key: string) => storage.get(key),
    delete: (key: string) => storage.delete(key),
  };
  try {
    const res = await uploadBytes(api, Buffer.from('%PDF-1.4\n%%EOF\n'), 'a.pdf');
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.headers['retry-after'], '60');
    assert.equal(res.body.message, MESSAGE);
    const rows = await ctx.db
      .selectFrom('files')
      .select('id')
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    assert.deepEqual(rows, []);
  } finally {
    ctx.storage = storage;
  }
});
