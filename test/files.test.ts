import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { attachUpload, openFileStream, readFileBuffer } from '../src/files/attach-upload.ts';
import { detectFormat } from '../src/files/detect-format.ts';
import { purgeExpiredUploads } from '../src/files/purge-expired-uploads.ts';
import { findFile } from '../src/files/repository.ts';
import {
  createStorage,
  getStorage,
  LocalFileStorage,
  S3FileStorage,
  StorageLimitExceeded,
  s3ClientOptions,
  s3ObjectKey,
  storageKeyFor,
} from '../src/files/storage.ts';
import { ApiError } from '../src/http/errors.ts';
import {
  downloadFile,
  makeJpeg,
  makePdf,
  makePng,
  multipartBody,
  postMultipart,
  readPngText,
  uploadBytes,
  uploadRef,
} from './helpers/files.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

async function rowsOf(workspaceId: string) {
  const { ctx } = await getHarness();
  return ctx.db.selectFrom('files').selectAll().where('workspace_id', '=', workspaceId).execute();
}

async function storedFilesOf(workspaceId: string): Promise<string[]> {
  const { config } = await getHarness();
  const dir = path.join(config.dataDir, 'files', workspaceId);
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

async function attach(workspaceId: string, ref: string, field = 'data.files[0].upload_ref') {
  const { ctx } = await getHarness();
  return ctx.db.transaction().execute((trx) => attachUpload(trx, workspaceId, ref, field));
}

async function rejects400(promise: Promise<unknown>, field: string) {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof ApiError);
    assert.equal(err.statusCode, 400);
    assert.equal(err.details?.[0]?.path, field);
    return true;
  });
}

describe('files: upload', () => {
  test('PNG, JPEG and PDF uploads return an upload_ref valid about 24 h, stored with size, type and hash', async () => {
    const api = await newWorkspace();
    const samples: [Buffer, string][] = [
      [
        makePng({ width: 16, height: 12, text: { mrz: 'P<FRADUPONT<<JEAN', sandbox_outcome: 'approved' } }),
        'image/png',
      ],
      [makeJpeg({ width: 24, height: 16, comment: 'sandbox_outcome=approved' }), 'image/jpeg'],
      [
        makePdf({ text: ['Certificate of incorporation'], image: { width: 800, height: 600 } }),
        'application/pdf',
      ],
    ];
    for (const [bytes, mime] of samples) {
      const before = Date.now();
      // the format comes from the content; a declared name and type must agree with it
      const ext = { 'image/png': 'png', 'image/jpeg': 'jpg', 'application/pdf': 'pdf' }[mime];
      const res = await uploadBytes(api, bytes, `scan.${ext}`, mime);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), ['expired_at', 'upload_ref']);
      assert.match(res.body.upload_ref, /^upl_[A-Za-z0-9_-]{32}$/);
      const ttl = Date.parse(res.body.expired_at) - before;
      assert.ok(Math.abs(ttl - 24 * 3600_000) < 60_000, `expired_at ~24 h ahead (${ttl} ms)`);
      const { ctx } = await getHarness();
      const row = await ctx.db
        .selectFrom('files')
        .selectAll()
        .where('upload_ref', '=', res.body.upload_ref)
        .executeTakeFirstOrThrow();
      assert.equal(row.workspace_id, api.workspaceId);
      assert.equal(row.mime, mime);
      assert.equal(Number(row.size), bytes.length);
      assert.equal(row.sha256, createHash('sha256').update(bytes).digest('hex'));
      assert.equal(row.attached_at, null);
      assert.equal(row.storage_key, `${api.workspaceId}/${row.id}`);
    }
    assert.equal((await storedFilesOf(api.workspaceId)).length, 3);
  });

  test('a missing file field, another field name or an empty file → 400 naming file', async () => {
    const api = await newWorkspace();
    const cases = [
      await postMultipart(api, [{ name: 'comment', data: 'no file here' }]),
      await postMultipart(api, [{ name: 'file', data: 'a text field, not a file' }]),
      await postMultipart(api, [
        { name: 'document', filename: 'a.png', data: makePng({ width: 2, height: 2 }) },
      ]),
      await uploadBytes(api, Buffer.alloc(0), 'empty.png', 'image/png'),
      await postMultipart(api, []),
    ];
    for (const res of cases) {
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.code, 'BAD_REQUEST');
      assert.equal(res.body.details[0].path, 'file');
    }
    assert.match(cases[3].body.message, /empty/);
    assert.equal((await rowsOf(api.workspaceId)).length, 0);
    assert.deepEqual(await storedFilesOf(api.workspaceId), []);
  });

  test('a form with anything besides its one file → 400 naming the part, nothing kept', async () => {
    const api = await newWorkspace();
    const png = () => ({ name: 'file', filename: 'a.png', data: makePng({ width: 2, height: 2 }) });
    const refused = [
      { parts: [{ name: 'comment', data: 'before' }, png()], path: 'comment' },
      { parts: [png(), { name: 'comment', data: 'after' }], path: 'comment' },
      {
        parts: [png(), { name: 'other', filename: 'b.png', data: makePng({ width: 2, height: 2 }) }],
        path: 'other',
      },
      { parts: [png(), png()], path: 'file' },
    ];
    for (const { parts, path: field } of refused) {
      const res = await postMultipart(api, parts);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.details[0].path, field, JSON.stringify(res.body));
    }
    assert.deepEqual(await rowsOf(api.workspaceId), []);
    assert.deepEqual(await storedFilesOf(api.workspaceId), []);
    // the file alone is still accepted
    assert.equal((await postMultipart(api, [png()])).status, 200);
    assert.equal((await rowsOf(api.workspaceId)).length, 1);
  });

  test('Idempotency-Key: a retried upload gets the first upload_ref, keeps one copy; another file with the key → 409', async () => {
    const api = await newWorkspace();
    const { app } = await getHarness();
    const send = async (key: string, data: Buffer, filename = 'scan.png') => {
      const { payload, contentType } = multipartBody([{ name: 'file', filename, data }]);
      const res = await app.inject({
        method: 'POST',
        url: '/v1/files/upload',
        headers: { 'x-service-api-key': api.key, 'content-type': contentType, 'idempotency-key': key },
        payload,
      });
      return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
    };
    const png = makePng({ width: 3, height: 3 });
    const first = await send('up-1', png);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const again = await send('up-1', png);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    // the retry's bytes were not kept: one row, one stored object
    assert.equal((await rowsOf(api.workspaceId)).length, 1);
    assert.equal((await storedFilesOf(api.workspaceId)).length, 1);
    // the same key with another file, or the same bytes under another name: another request
    for (const [data, name] of [
      [makePng({ width: 5, height: 5 }), 'scan.png'],
      [png, 'other.png'],
    ] as const) {
      const conflict = await send('up-1', data, name);
      assert.equal(conflict.status, 409, JSON.stringify(conflict.body));
      assert.match(conflict.body.message, /already used with a different request/);
    }
    assert.equal((await rowsOf(api.workspaceId)).length, 1);
    assert.equal((await storedFilesOf(api.workspaceId)).length, 1);
    // a blank key is refused as on every POST, before the file is read
    const blank = await send('  ', png);
    assert.equal(blank.status, 400);
    assert.equal(blank.body.details[0].path, 'Idempotency-Key');
    // without a key, each upload is its own
    assert.notEqual((await uploadBytes(api, png, 'scan.png')).body.upload_ref, first.body.upload_ref);
  });

  test('a format that is not an accepted document or image → 415, even named .png', async () => {
    const api = await newWorkspace();
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    for (const bytes of [
      Buffer.from('hello, this is plain text\n'.repeat(10)),
      gif,
      Buffer.from('PK\x03\x04zipzip'),
    ]) {
      const res = await uploadBytes(api, bytes, 'photo.png', 'image/png');
      assert.equal(res.status, 415, JSON.stringify(res.body));
      assert.equal(res.body.code, 'UNSUPPORTED_MEDIA_TYPE');
      assert.equal(res.body.details[0].path, 'file');
    }
    assert.equal((await rowsOf(api.workspaceId)).length, 0);
    assert.deepEqual(await storedFilesOf(api.workspaceId), []);
  });

  test('a request that is not multipart → 415 with a clear message', async () => {
    const api = await newWorkspace();
    const res = await api.post('/v1/files/upload', { file: 'aGVsbG8=' });
    assert.equal(res.status, 415, JSON.stringify(res.body));
    assert.match(res.body.message, /multipart\/form-data/);
    const { app } = await getHarness();
    const raw = await app.inject({
      method: 'POST',
      url: '/v1/files/upload',
      headers: { 'x-service-api-key': api.key, 'content-type': 'image/png' },
      payload: makePng({ width: 2, height: 2 }),
    });
    assert.equal(raw.statusCode, 415);
    // the message names the header, what it said and what the route reads
    assert.deepEqual(JSON.parse(raw.body).details, [
      {
        path: 'content-type',
        message:
          'Content-Type image/png is not read here: send the body as multipart/form-data, with the file in the form field "file"',
      },
    ]);
    const form = await app.inject({
      method: 'POST',
      url: '/v1/cases',
      headers: { 'x-service-api-key': api.key, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Acme',
    });
    assert.equal(form.statusCode, 415);
    assert.equal(JSON.parse(form.body).code, 'UNSUPPORTED_MEDIA_TYPE');
    assert.equal(
      JSON.parse(form.body).message,
      'Content-Type application/x-www-form-urlencoded is not read here: send the body as application/json',
    );
    // a text body is refused in the same words, naming what the route reads (it had its own wording)
    for (const [url, wanted] of [
      ['/v1/files/upload', 'multipart/form-data, with the file in the form field "file"'],
      ['/v1/cases', 'application/json'],
    ]) {
      const text = await app.inject({
        method: 'POST',
        url,
        headers: { 'x-service-api-key': api.key, 'content-type': 'text/plain; charset=utf-8' },
        payload: 'hello',
      });
      assert.equal(text.statusCode, 415, url);
      const message = `Content-Type text/plain is not read here: send the body as ${wanted}`;
      assert.equal(JSON.parse(text.body).code, 'UNSUPPORTED_MEDIA_TYPE');
      assert.equal(JSON.parse(text.body).message, message);
      assert.deepEqual(JSON.parse(text.body).details, [{ path: 'content-type', message }]);
    }
    // nothing sent at all: the file is missing (400 naming it), not in a refused format
    const nothing = await app.inject({
      method: 'POST',
      url: '/v1/files/upload',
      headers: { 'x-service-api-key': api.key },
    });
    assert.equal(nothing.statusCode, 400, nothing.body);
    assert.equal(JSON.parse(nothing.body).details[0].path, 'file');
    // multipart without a boundary is malformed
    const noBoundary = await app.inject({
      method: 'POST',
      url: '/v1/files/upload',
      headers: { 'x-service-api-key': api.key, 'content-type': 'multipart/form-data' },
      payload: 'x',
    });
    assert.equal(noBoundary.statusCode, 400, noBoundary.body);
    assert.equal(JSON.parse(noBoundary.body).details[0].path, 'body');
    // a body that breaks off in the middle of the file: 400, nothing stored
    const png = makePng({ width: 64, height: 64 });
    const truncated = await app.inject({
      method: 'POST',
      url: '/v1/files/upload',
      headers: { 'x-service-api-key': api.key, 'content-type': 'multipart/form-data; boundary=XyZ' },
      payload: Buffer.concat([
        Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n'),
        png,
        Buffer.alloc(10_000, 1),
      ]),
    });
    assert.equal(truncated.statusCode, 400, truncated.body);
    assert.equal((await rowsOf(api.workspaceId)).length, 0);
    assert.deepEqual(await storedFilesOf(api.workspaceId), []);
    // a PNG cut short (its header and no image data, no IEND): refused, nothing stored (bad-input walk)
    for (const cut of [40, png.length - 1]) {
      const short = await uploadBytes(api, png.subarray(0, cut), 'short.png');
      assert.equal(short.status, 400, JSON.stringify(short.body));
      assert.deepEqual(short.body.details, [
        { path: 'file', message: 'file is a truncated or damaged PNG: its end (the IEND chunk) is missing' },
      ]);
      assert.equal(short.body.code, 'FILE_DAMAGED');
    }
    assert.equal((await rowsOf(api.workspaceId)).length, 0);
    assert.deepEqual(await storedFilesOf(api.workspaceId), []);
  });

  test('over 20 MB → 413, nothing left in storage or in the table; exactly 20 MB is accepted', async () => {
    const api = await newWorkspace();
    const png = makePng({ width: 8, height: 8 });
    const big = Buffer.concat([png, Buffer.alloc(21 * 1024 * 1024 - png.length, 7)]);
    const res = await uploadBytes(api, big, 'big.png');
    assert.equal(res.status, 413, JSON.stringify(res.body));
    assert.equal(res.body.code, 'PAYLOAD_TOO_LARGE');
    assert.equal(res.body.details[0].path, 'file');
    assert.equal((await rowsOf(api.workspaceId)).length, 0);
    assert.deepEqual(await storedFilesOf(api.workspaceId), [], 'no partial file left');

    // over 20 MB in a format that is not accepted either (zeros, as a test would build it): the
    // size limit answers first (413), not the format (415)
    for (const [bytes, name] of [
      [Buffer.alloc(21 * 1024 * 1024), 'big.pdf'],
      [Buffer.alloc(21 * 1024 * 1024, 'a'), 'big.txt'],
      [Buffer.concat([png, Buffer.alloc(21 * 1024 * 1024, 7)]), 'big.pdf'],
    ] as const) {
      const both = await uploadBytes(api, bytes, name);
      assert.equal(both.status, 413, `${name}: ${JSON.stringify(both.body)}`);
      assert.equal(both.body.code, 'PAYLOAD_TOO_LARGE');
      assert.equal(both.body.details[0].path, 'file');
    }
    assert.equal((await rowsOf(api.workspaceId)).length, 0);

    const exact = Buffer.concat([png, Buffer.alloc(20 * 1024 * 1024 - png.length, 7)]);
    const ok = await uploadBytes(api, exact, 'exact.png');
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const rows = await rowsOf(api.workspaceId);
    assert.equal(Number(rows[0].size), 20 * 1024 * 1024);
    assert.equal(rows[0].sha256, createHash('sha256').update(exact).digest('hex'));
    assert.equal((await storedFilesOf(api.workspaceId)).length, 1);
  });
});

describe('files: attach and read', () => {
  test('after attachUpload, GET /v1/files/{id} returns the exact bytes as application/octet-stream', async () => {
    const api = await newWorkspace();
    const bytes = makePdf({ text: 'Kbis extract', image: { width: 1200, height: 900 } });
    const ref = await uploadRef(api, bytes);
    const file = await attach(api.workspaceId, ref);
    assert.equal(file.size, bytes.length);
    assert.equal(file.mime, 'application/pdf');
    assert.equal(file.sha256, createHash('sha256').update(bytes).digest('hex'));

    const res = await downloadFile(api, file.id);
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.equal(res.headers['content-disposition'], undefined);
    assert.equal(Number(res.headers['content-length']), bytes.length);
    assert.ok(res.bytes.equals(bytes), 'same bytes');

    // referenced again (another check): the same file
    const again = await attach(api.workspaceId, ref, 'front_upload_ref');
    assert.equal(again.id, file.id);

    // the provider-side readers and findFile
    const { ctx } = await getHarness();
    const storage = getStorage(ctx);
    const found = await findFile(ctx.db, api.workspaceId, file.id);
    assert.deepEqual(found, file);
    assert.ok((await readFileBuffer(storage, file)).equals(bytes));
    const chunks: Buffer[] = [];
    for await (const c of await openFileStream(storage, file)) chunks.push(c as Buffer);
    assert.ok(Buffer.concat(chunks).equals(bytes));
  });

  test('another workspace, a never-attached upload and an unknown id → 404; a non-uuid id → 400', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const attachedRef = await uploadRef(api);
    const file = await attach(api.workspaceId, attachedRef);
    assert.equal((await downloadFile(other, file.id)).status, 404);

    const loneRef = await uploadRef(api);
    const lone = await (await getHarness()).ctx.db
      .selectFrom('files')
      .select('id')
      .where('upload_ref', '=', loneRef)
      .executeTakeFirstOrThrow();
    const res = await downloadFile(api, lone.id);
    assert.equal(res.status, 404);
    assert.equal(JSON.parse(res.body).code, 'NOT_FOUND');
    assert.equal((await downloadFile(api, '00000000-0000-4000-8000-000000000000')).status, 404);
    const bad = await downloadFile(api, 'not-a-uuid');
    assert.equal(bad.status, 400);
    assert.equal(JSON.parse(bad.body).details[0].path, 'id');
  });

  test('attachUpload with an unknown, expired or other-workspace upload_ref → 400 naming the field', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const { ctx } = await getHarness();
    await rejects400(
      attach(api.workspaceId, 'upl_doesnotexist', 'data.files[2].upload_ref'),
      'data.files[2].upload_ref',
    );
    await rejects400(attach(api.workspaceId, '', 'front_upload_ref'), 'front_upload_ref');

    const foreign = await uploadRef(other);
    await rejects400(attach(api.workspaceId, foreign, 'back_upload_ref'), 'back_upload_ref');

    const expired = await uploadRef(api);
    await ctx.db
      .updateTable('files')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('upload_ref', '=', expired)
      .execute();
    await assert.rejects(attach(api.workspaceId, expired, 'front_upload_ref'), /expired/);
    // nothing was attached by the failures
    const attached = await ctx.db
      .selectFrom('files')
      .select('id')
      .where('workspace_id', 'in', [api.workspaceId, other.workspaceId])
      .where('attached_at', 'is not', null)
      .execute();
    assert.equal(attached.length, 0);
  });
});

describe('files: purge', () => {
  test('purgeExpiredUploads removes expired unattached uploads (rows and bytes), keeps attached and fresh ones', async () => {
    const api = await newWorkspace();
    const { ctx } = await getHarness();
    const storage = getStorage(ctx);
    const [expiredA, expiredB, attachedRef, fresh] = [
      await uploadRef(api),
      await uploadRef(api, makeJpeg()),
      await uploadRef(api, makePdf()),
      await uploadRef(api),
    ];
    const attachedFile = await attach(api.workspaceId, attachedRef);
    await ctx.db
      .updateTable('files')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('upload_ref', 'in', [expiredA, expiredB, attachedRef])
      .execute();
    assert.equal((await storedFilesOf(api.workspaceId)).length, 4);

    const purged = await purgeExpiredUploads(ctx.db, storage);
    assert.ok(purged >= 2, `purged ${purged}`);
    const left = await rowsOf(api.workspaceId);
    assert.deepEqual(left.map((r) => r.upload_ref).sort(), [attachedRef, fresh].sort());
    assert.deepEqual((await storedFilesOf(api.workspaceId)).sort(), left.map((r) => r.id).sort());
    // the attached file is still readable
    const res = await downloadFile(api, attachedFile.id);
    assert.equal(res.status, 200);
    assert.ok(res.bytes.equals(makePdf()));
    assert.equal(await purgeExpiredUploads(ctx.db, storage, new Date(Date.now() - 3600_000)), 0);
  });
});

describe('files: storage and formats', () => {
  test('local storage caps the size and leaves no partial file; keys cannot escape the root', async () => {
    const { config } = await getHarness();
    const storage = new LocalFileStorage(path.join(config.dataDir, 'files-unit'));
    const key = storageKeyFor('ws', 'f1');
    await assert.rejects(
      storage.put(key, Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 1000),
      StorageLimitExceeded,
    );
    assert.equal(
      fs.existsSync(path.join(storage.root, 'ws')) ? fs.readdirSync(path.join(storage.root, 'ws')).length : 0,
      0,
    );
    assert.deepEqual(await storage.put(key, Readable.from([Buffer.from('abc')]), 1000), { size: 3 });
    assert.equal((await readFileBuffer(storage, { storage_key: key })).toString(), 'abc');
    await storage.delete(key);
    await storage.delete(key); // idempotent
    assert.throws(() => storage.pathOf('../etc/passwd'));
    assert.throws(() => storage.pathOf('/abs'));
  });

  test('S3 storage: chosen when configured, object key layout and client options (no network)', () => {
    const s3 = {
      bucket: 'b',
      region: 'eu-west-3',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
      timeoutMs: 10_000,
    };
    const storage = createStorage({ dataDir: '/tmp/x', s3 });
    assert.ok(storage instanceof S3FileStorage);
    assert.equal(storage.kind, 's3');
    assert.equal(s3ObjectKey(storageKeyFor('w-1', 'f-2')), 'files/w-1/f-2');
    assert.throws(() => s3ObjectKey('../x'));
    // uploads: bounded by silence; downloads: by the wait for the answer's headers (storage.ts)
    const write = { connectionTimeout: 10_000, socketTimeout: 10_000 };
    assert.deepEqual(s3ClientOptions(s3), {
      region: 'eu-west-3',
      forcePathStyle: true,
      endpoint: 'http://127.0.0.1:9000',
      requestHandler: write,
    });
    assert.deepEqual(s3ClientOptions({ ...s3, endpoint: null, forcePathStyle: false }), {
      region: 'eu-west-3',
      forcePathStyle: false,
      requestHandler: write,
    });
    assert.deepEqual(s3ClientOptions(s3, 'read').requestHandler, {
      connectionTimeout: 10_000,
      requestTimeout: 10_000,
      throwOnRequestTimeout: true,
    });
    assert.equal(createStorage({ dataDir: '/tmp/x', s3: null }).kind, 'local');
  });

  test('formats are read from the content; generated fixtures are what they claim', async () => {
    assert.equal(await detectFormat(makePng({ width: 1, height: 1 })), 'image/png');
    assert.equal(await detectFormat(makeJpeg({ comment: 'x' })), 'image/jpeg');
    assert.equal(await detectFormat(makePdf()), 'application/pdf');
    const webp = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WEBPVP8 ', 'latin1'), Buffer.alloc(28)]);
    assert.equal(await detectFormat(webp), 'image/webp');
    const heic = Buffer.concat([
      Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic', 'latin1'),
      Buffer.alloc(64),
    ]);
    assert.equal(await detectFormat(heic), 'image/heic');
    // a TIFF whose first IFD lies past the sniffed bytes
    const tiff = Buffer.alloc(8192);
    tiff.write('II*\x00', 'latin1');
    tiff.writeUInt32LE(8000, 4);
    assert.equal(await detectFormat(tiff), 'image/tiff');
    assert.equal(await detectFormat(Buffer.from('plain text')), null);
    assert.deepEqual(
      readPngText(makePng({ width: 1, height: 1, text: { mrz: 'X<<1', sandbox_outcome: 'rejected' } })),
      {
        mrz: 'X<<1',
        sandbox_outcome: 'rejected',
      },
    );
    const jpeg = makeJpeg({ width: 640, height: 480, comment: 'hi' });
    assert.equal(jpeg.readUInt16BE(0), 0xffd8);
    assert.equal(jpeg.readUInt16BE(jpeg.length - 2), 0xffd9);
    assert.ok(jpeg.includes(Buffer.from('hi')));
    const pdf = makePdf({ image: { width: 2400, height: 1800 } }).toString('latin1');
    assert.match(pdf, /\/Width 2400 \/Height 1800/);
    const startxref = Number(pdf.match(/startxref\n(\d+)/)?.[1]);
    assert.equal(pdf.slice(startxref, startxref + 4), 'xref');
  });
});
