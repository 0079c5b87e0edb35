/**
 * An S3 bucket that refuses the configuration (test/helpers/s3-server.ts, which takes one access
 * key id): a bucket that does not exist, an access key id it does not know, no credentials at all.
 * Each was a 500 "An unexpected error occurred" on every upload and download, with a stack trace a
 * request, and /readyz said ready. Now: a 503 saying file storage is misconfigured (retry-after 60:
 * an operator has to act), the cause named in the log once (then counted), and /readyz not ready
 * naming it; the bucket's name, endpoint and keys stay out of the answers.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { newWorkspace, type ServerProcess } from '../drills/_lib.ts';
import { S3FileStorage, StorageMisconfigured, storageKeyFor } from '../src/files/storage.ts';
import { makePng } from './helpers/files.ts';
import { cleanupsAfter, startOwnServer } from './helpers/own-server.ts';
import { S3TestServer } from './helpers/s3-server.ts';

const BUCKET = 'vericase-test';
const KEY_ID = 'vericase-test';

/** No credentials anywhere the SDK's default chain looks (environment, files, instance metadata). */
const NO_CREDENTIALS = {
  AWS_ACCESS_KEY_ID: '',
  AWS_SECRET_ACCESS_KEY: '',
  AWS_SESSION_TOKEN: '',
  AWS_PROFILE: '',
  AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials',
  AWS_CONFIG_FILE: '/nonexistent/config',
  AWS_EC2_METADATA_DISABLED: 'true',
};

const CASES = [
  {
    label: 'a bucket that does not exist',
    env: { VERICASE_S3_BUCKET: 'nosuchbucket', AWS_ACCESS_KEY_ID: KEY_ID },
    cause: /the bucket does not exist \(NoSuchBucket\)/,
    readyz: /^file storage is misconfigured: the bucket does not exist/,
  },
  {
    label: 'an access key id the server does not know',
    env: { VERICASE_S3_BUCKET: BUCKET, AWS_ACCESS_KEY_ID: 'nobody' },
    cause: /the credentials were refused: the access key id is unknown to the server \(InvalidAccessKeyId\)/,
    readyz: /^file storage is misconfigured: the credentials were refused/,
  },
  {
    label: 'no credentials',
    env: { VERICASE_S3_BUCKET: BUCKET, ...NO_CREDENTIALS },
    cause: /no credentials were found/,
    readyz: /^file storage is misconfigured: no credentials were found/,
  },
];

describe('files in a misconfigured S3 bucket', () => {
  const cleanups = cleanupsAfter(after);
  const s3 = new S3TestServer(BUCKET, { accessKeyId: KEY_ID });
  const servers: ServerProcess[] = [];

  // three server starts, on a loaded machine up to a minute each
  before(
    async () => {
      await s3.start();
      cleanups.push(() => s3.stop());
      // one after the other: side by side, on a loaded 2-core machine, they missed startServer's minute
      for (const [i, c] of CASES.entries()) {
        servers.push(
          await startOwnServer(
            `files-s3-misconfigured-${i}`,
            {
              VERICASE_S3_ENDPOINT: s3.endpoint,
              VERICASE_S3_REGION: 'us-east-1',
              AWS_SECRET_ACCESS_KEY: 'vericase-test-secret',
              ...c.env,
            },
            cleanups,
          ),
        );
      }
    },
    { timeout: 300_000 },
  );

  CASES.forEach((c, i) => {
    test(`${c.label}: uploads answer 503 "misconfigured", logged once naming the cause; /readyz not ready`, async () => {
      const server = servers[i] as ServerProcess;
      const ws = await newWorkspace(server, `misconfigured ${i}`);
      const upload = async () => {
        const form = new FormData();
        form.append('file', new Blob([makePng({ width: 2, height: 2 })]), 'a.png');
        const res = await fetch(`${server.base}/v1/files/upload`, {
          method: 'POST',
          headers: { 'x-service-api-key': ws.key },
          body: form,
        });
        return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
      };
      for (let n = 0; n < 2; n++) {
        const res = await upload();
        assert.equal(res.status, 503, JSON.stringify(res.body));
        assert.equal(res.body.code, 'SERVICE_UNAVAILABLE');
        assert.equal(
          res.body.message,
          'File storage is unavailable: it is misconfigured, and the server log says how; an operator has to correct it',
        );
        assert.equal(res.headers.get('retry-after'), '60');
      }
      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.includes('is misconfigured') && !l.includes('readiness:'));
      assert.equal(lines.length, 1, `one line for both requests:\n${lines.join('\n')}`);
      const line = JSON.parse(lines[0] as string);
      assert.equal(line.level, 50, 'at error');
      assert.match(line.msg, c.cause);
      assert.match(
        line.msg,
        /file storage \(S3 bucket \S+ at http:\/\/127\.0\.0\.1:\d+\) is misconfigured: /,
      );
      assert.doesNotMatch(server.output(), /vericase-test-secret/, 'no secret in the log');
      assert.doesNotMatch(server.output(), /unhandled error/);

      const ready = await fetch(`${server.base}/readyz`);
      const body = (await ready.json()) as { status: string; checks: { storage: Record<string, string> } };
      assert.equal(ready.status, 503, JSON.stringify(body));
      assert.equal(body.status, 'not_ready');
      assert.equal(body.checks.storage.status, 'fail');
      assert.match(body.checks.storage.message as string, c.readyz);
      assert.doesNotMatch(
        JSON.stringify(body),
        /127\.0\.0\.1|nosuchbucket|vericase-test/,
        'no bucket or endpoint',
      );
    });
  });

  test('downloads and the readiness probe are told the same (the storage itself)', async () => {
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    process.env.AWS_ACCESS_KEY_ID = KEY_ID;
    process.env.AWS_SECRET_ACCESS_KEY = 'vericase-test-secret';
    try {
      const settings = {
        bucket: 'nosuchbucket',
        region: 'us-east-1',
        endpoint: s3.endpoint,
        forcePathStyle: true,
        timeoutMs: 5000,
      };
      const missing = new S3FileStorage(settings);
      const key = storageKeyFor('w', 'f');
      await assert.rejects(missing.get(key), (err) => {
        assert.ok(err instanceof StorageMisconfigured);
        assert.equal(err.reason, 'the bucket does not exist (NoSuchBucket)');
        return true;
      });
      // HeadBucket's 404 has no body, so no code: the bucket is missing all the same
      await assert.rejects(missing.probe(AbortSignal.timeout(5000)), /misconfigured/);
      await assert.rejects(missing.probe(AbortSignal.timeout(5000)), (err) => {
        assert.ok(err instanceof StorageMisconfigured);
        assert.match(err.reason, /^the bucket does not exist/);
        return true;
      });
      const good = new S3FileStorage({ ...settings, bucket: BUCKET });
      await good.probe(AbortSignal.timeout(5000));
      await good.put(key, Readable.from([Buffer.from('abc')]), 10);
      process.env.AWS_ACCESS_KEY_ID = 'nobody';
      const refused = new S3FileStorage({ ...settings, bucket: BUCKET });
      await assert.rejects(refused.get(key), (err) => {
        assert.ok(err instanceof StorageMisconfigured);
        assert.match(err.reason, /InvalidAccessKeyId/);
        return true;
      });
      await assert.rejects(refused.probe(AbortSignal.timeout(5000)), StorageMisconfigured);
    } finally {
      for (const [name, value] of [
        ['AWS_ACCESS_KEY_ID', saved.id],
        ['AWS_SECRET_ACCESS_KEY', saved.secret],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
