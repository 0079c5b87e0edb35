/**
 * Files in an S3-compatible bucket (VERICASE_S3_*), end to end through a running `vericase serve`
 * and a small S3-compatible server of the test's own (test/helpers/s3-server.ts: path-style, the
 * SDK's `aws-chunked` bodies and CRC32 checksums decoded and checked). What the rest of the suite
 * checks on the local disk, here on a bucket: an upload lands under `files/<workspace>/<file>`, a
 * check reads it (the sandbox document analysis), GET /v1/files/{id} returns the same bytes; a body
 * over 5 MB goes up as a multipart upload; over 20 MB is 413 with nothing left in the bucket, not
 * even an unfinished multipart upload; the bucket unreachable is 503 with retry-after, and the same
 * process serves files again when it is back; a bucket that accepts connections but never answers
 * is the same 503 within VERICASE_S3_TIMEOUT_MS's attempts (it held requests 130 s, then dropped
 * them without an answer or a log line), logged once at warn naming the bucket; /readyz asks the
 * bucket (HeadBucket) and stays ready while it stalls (test/files-s3-misconfigured.test.ts: not ready
 * when it refuses the configuration).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type HttpClient, newWorkspace, type ServerProcess } from '../drills/_lib.ts';
import { documentCase, outcomePng } from './helpers/document-checks.ts';
import { makePng } from './helpers/files.ts';
import { cleanupsAfter, startOwnServer } from './helpers/own-server.ts';
import { S3TestServer } from './helpers/s3-server.ts';

const BUCKET = 'vericase-test';
const S3_TIMEOUT_MS = 2000;

describe('files in an S3-compatible bucket', () => {
  const cleanups = cleanupsAfter(after);
  const s3 = new S3TestServer(BUCKET);
  let server: ServerProcess;
  let ws: { id: string; key: string; client: HttpClient };

  before(async () => {
    await s3.start();
    cleanups.push(() => s3.stop());
    server = await startOwnServer(
      'files-s3',
      {
        VERICASE_S3_BUCKET: BUCKET,
        VERICASE_S3_ENDPOINT: s3.endpoint,
        VERICASE_S3_REGION: 'us-east-1',
        VERICASE_S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'vericase-test',
        AWS_SECRET_ACCESS_KEY: 'vericase-test-secret',
        // short, so that the stalled bucket's three attempts take seconds, not half a minute
        VERICASE_S3_TIMEOUT_MS: String(S3_TIMEOUT_MS),
      },
      cleanups,
    );
    ws = await newWorkspace(server, 'files in s3');
  });

  const upload = async (bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), 'upload.png');
    const res = await fetch(`${server.base}/v1/files/upload`, {
      method: 'POST',
      headers: { 'x-service-api-key': ws.key },
      body: form,
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
  };
  const download = async (fileId: string) => {
    const res = await fetch(`${server.base}/v1/files/${fileId}`, {
      headers: { 'x-service-api-key': ws.key },
    });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  /** A document check of these uploads, settled; its file ids. */
  const checkOf = async (refs: string[]) => {
    const { companyId } = await documentCase(ws.client as never);
    const created = await ws.client.post('/v1/checks/document', {
      company_id: companyId,
      settings: { document_type_key: 'registration_certificate' },
      data: { files: refs.map((upload_ref) => ({ upload_ref })) },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    let check = created.body;
    for (let i = 0; i < 600 && check.status === 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      check = (await ws.client.get(`/v1/checks/document/${created.body.id}`)).body;
    }
    return check;
  };
  const objectKeys = () => [...s3.objects.keys()].filter((k) => k.startsWith(`files/${ws.id}/`));

  test('an upload is stored in the bucket, read by a check, and downloaded byte for byte', async () => {
    const bytes = outcomePng('approved');
    const res = await upload(bytes);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const keys = objectKeys();
    assert.equal(keys.length, 1, JSON.stringify([...s3.objects.keys()]));
    assert.ok(s3.objects.get(keys[0] as string)?.equals(bytes), 'the bucket holds the uploaded bytes');

    const check = await checkOf([res.body.upload_ref]);
    assert.equal(check.status, 'approved', JSON.stringify(check));
    const [fileId] = check.data.document_file_ids as string[];
    assert.equal(keys[0], `files/${ws.id}/${fileId}`);
    const got = await download(fileId as string);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'application/octet-stream');
    assert.ok(got.bytes.equals(bytes), 'the same bytes back');
  });

  test('6 MB goes up as a multipart upload; over 20 MB is 413 and leaves nothing in the bucket', async () => {
    const png = makePng({ width: 4, height: 4 });
    const six = Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024, 7)]);
    const before = objectKeys().length;
    const res = await upload(six);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(
      s3.requests.some((r) => r.startsWith('POST ') && /[?&]uploads(=|&|$)/.test(r)),
      `a multipart upload was created: ${s3.requests.join(', ')}`,
    );
    assert.equal(objectKeys().length, before + 1);
    assert.ok(
      objectKeys().some((k) => s3.objects.get(k)?.equals(six)),
      'the parts were put together in order',
    );

    const tooBig = Buffer.concat([png, Buffer.alloc(20 * 1024 * 1024, 7)]);
    const refused = await upload(tooBig);
    assert.equal(refused.status, 413, JSON.stringify(refused.body));
    assert.equal(objectKeys().length, before + 1, 'nothing kept of the refused upload');
    assert.deepEqual([...s3.uploads.keys()], [], 'no unfinished multipart upload left behind');
  });

  test('the bucket unreachable: uploads and downloads answer 503 with retry-after; served again when it is back', async () => {
    const bytes = outcomePng('approved');
    const stored = await upload(bytes);
    assert.equal(stored.status, 200);
    const check = await checkOf([stored.body.upload_ref]);
    const fileId = check.data.document_file_ids[0] as string;

    await s3.stop();
    const refused = await upload(outcomePng('approved'));
    assert.equal(refused.status, 503, JSON.stringify(refused.body));
    assert.equal(refused.body.code, 'SERVICE_UNAVAILABLE');
    assert.equal(refused.body.message, 'File storage is unavailable; try again shortly');
    assert.equal(refused.headers.get('retry-after'), '5');
    const unreadable = await download(fileId);
    assert.equal(unreadable.status, 503);
    assert.equal(unreadable.headers.get('retry-after'), '5');

    await s3.start();
    const again = await download(fileId);
    assert.equal(again.status, 200);
    assert.ok(again.bytes.equals(bytes));
    assert.equal((await upload(outcomePng('approved'))).status, 200);
    assert.equal(server.child.exitCode, null);
  });

  test('the bucket stalls (connections accepted, nothing answered): 503 with retry-after within the timeout, one warning', async () => {
    const bytes = outcomePng('approved');
    const stored = await upload(bytes);
    assert.equal(stored.status, 200);
    const check = await checkOf([stored.body.upload_ref]);
    const fileId = check.data.document_file_ids[0] as string;

    s3.stall();
    try {
      // the SDK's three attempts, each abandoned after S3_TIMEOUT_MS of silence, and its back-off
      // (about 7 s alone; room left for a loaded machine): not the 130 s it was held
      const bound = 3 * S3_TIMEOUT_MS + 14_000;
      let started = Date.now();
      const refused = await upload(outcomePng('approved'));
      assert.ok(Date.now() - started < bound, `upload answered in ${Date.now() - started} ms`);
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.equal(refused.body.message, 'File storage is unavailable; try again shortly');
      assert.equal(refused.headers.get('retry-after'), '5');
      started = Date.now();
      const unreadable = await download(fileId);
      assert.ok(Date.now() - started < bound, `download answered in ${Date.now() - started} ms`);
      assert.equal(unreadable.status, 503);
      assert.equal(unreadable.headers.get('retry-after'), '5');
      assert.ok(
        s3.requests.some((r) => r.startsWith('stalled ')),
        'the requests reached the stalled server',
      );
      const warnings = server
        .output()
        .split('\n')
        .filter((l) => l.includes('did not answer in time'));
      assert.equal(warnings.length, 1, `one line for the episode:\n${warnings.join('\n')}`);
      assert.equal(JSON.parse(warnings[0] as string).level, 40, 'at warn');
      assert.match(
        warnings[0] as string,
        new RegExp(`file storage \\(S3 bucket ${BUCKET} at ${s3.endpoint}\\)`),
      );

      // the process stays ready (every process shares the bucket; everything else works), and says
      // so once its cached answer (10 s) is renewed
      let ready: { status: number; body: Record<string, any> } | undefined;
      for (let n = 0; n < 40; n++) {
        const res = await fetch(`${server.base}/readyz`);
        ready = { status: res.status, body: (await res.json()) as Record<string, any> };
        if (ready.body.checks.storage.status !== 'ok') break;
        await new Promise((r) => setTimeout(r, 500));
      }
      assert.equal(ready?.status, 200, JSON.stringify(ready?.body));
      assert.equal(ready?.body.checks.storage.status, 'warn');
      assert.match(ready?.body.checks.storage.message, /^the bucket did not answer/);
    } finally {
      s3.resume();
    }
    const again = await download(fileId);
    assert.equal(again.status, 200);
    assert.ok(again.bytes.equals(bytes));
  });
});
