/**
 * An upload to the local disk (DATA_DIR/files) is written to `<file>.<random>.part` and renamed once
 * complete. An upload cut off by a graceful shutdown (SIGTERM with the body half sent) left its
 * `.part` for good, and no restart removed it. Now the shutdown removes the `.part` files of the
 * uploads it cut, and a start removes those left by a process that could not (killed): on the
 * embedded database every one (the DATA_DIR lock says no other process writes there), on PostgreSQL,
 * where processes share the directory, those older than the HTTP request timeout (no live upload
 * goes that long without writing); the hourly `files.purge` job sweeps the same way.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, test } from 'node:test';
import { newWorkspace, type ServerProcess, startServer, waitUntil } from '../drills/_lib.ts';
import { cleanupsAfter, ownDatabaseEnv } from './helpers/own-server.ts';

const cleanups = cleanupsAfter(after);

/** Every `.part` file under a directory, as paths relative to it. */
function partFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith('.part')).sort();
}

/** An upload whose body is half sent and then held: its socket (the `.part` is being written). */
async function heldUpload(server: ServerProcess, key: string): Promise<net.Socket> {
  const boundary = 'vericase-held-upload';
  const head = Buffer.from(
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="held.pdf"\r\ncontent-type: application/pdf\r\n\r\n%PDF-1.4\n`,
  );
  const socket = net.connect(server.port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    [
      'POST /v1/files/upload HTTP/1.1',
      'host: 127.0.0.1',
      `x-service-api-key: ${key}`,
      `content-type: multipart/form-data; boundary=${boundary}`,
      // a 1 MB body of which 256 KB are sent
      `content-length: ${1024 * 1024}`,
      '',
      '',
    ].join('\r\n'),
  );
  socket.write(Buffer.concat([head, Buffer.alloc(256 * 1024, 0x20)]));
  return socket;
}

test('an upload abandoned or cut by SIGTERM leaves no .part; a start removes those a killed process left', {
  timeout: 300_000,
}, async () => {
  const env = await ownDatabaseEnv('partial-upload', cleanups);
  const files = path.join(env.DATA_DIR as string, 'files');
  const start = async () => {
    const server = await startServer({ env: { ...env, LOG_LEVEL: 'info' } });
    cleanups.push(() => server.kill9());
    return server;
  };

  const server = await start();
  const ws = await newWorkspace(server, 'partial upload');
  // the client goes away mid-upload: its write fails and removes the .part
  const abandoned = await heldUpload(server, ws.key);
  assert.ok(
    await waitUntil(async () => partFiles(files).length === 1, 30_000),
    'the upload is being written',
  );
  abandoned.destroy();
  assert.ok(
    await waitUntil(async () => partFiles(files).length === 0, 30_000),
    `an abandoned upload leaves no .part: ${partFiles(files).join(', ')}`,
  );

  const socket = await heldUpload(server, ws.key);
  cleanups.push(() => void socket.destroy());
  assert.ok(
    await waitUntil(async () => partFiles(files).length === 1, 30_000),
    'the upload is being written',
  );
  server.child.kill('SIGTERM');
  assert.equal(await server.exited, 0, server.output().slice(-4000));
  assert.deepEqual(partFiles(files), [], 'the shutdown removed the cut upload');

  // what a killed process leaves (no shutdown ran): one an hour old, one written a moment ago
  const dir = path.join(files, ws.id);
  fs.mkdirSync(dir, { recursive: true });
  const stale = path.join(dir, '00000000-0000-4000-8000-000000000001.0a0b0c0d0e0f.part');
  const fresh = path.join(dir, '00000000-0000-4000-8000-000000000002.0a0b0c0d0e0f.part');
  const kept = path.join(dir, '00000000-0000-4000-8000-000000000003');
  for (const f of [stale, fresh, kept]) fs.writeFileSync(f, 'partial');
  const hourAgo = new Date(Date.now() - 3600_000);
  fs.utimesSync(stale, hourAgo, hourAgo);

  const again = await start();
  assert.ok(
    await waitUntil(async () => !fs.existsSync(stale), 30_000),
    `the start removed the stale .part: ${partFiles(files).join(', ')}`,
  );
  if (env.DATABASE_URL) {
    // PostgreSQL: another process sharing DATA_DIR may be writing it
    assert.ok(fs.existsSync(fresh), 'a .part younger than the request timeout is left alone');
  } else {
    // the embedded database: this process holds DATA_DIR's lock, so nobody else writes there
    assert.ok(await waitUntil(async () => !fs.existsSync(fresh), 30_000), 'every .part is removed');
  }
  assert.ok(fs.existsSync(kept), 'a stored file is not touched');
  const logged = () =>
    again
      .output()
      .split('\n')
      .find((l) => l.includes('unfinished uploads removed'));
  assert.ok(await waitUntil(async () => logged() !== undefined, 10_000), again.output().slice(-4000));
  const line = logged() as string;
  assert.equal(JSON.parse(line).removed, env.DATABASE_URL ? 1 : 2);
  assert.equal(await again.stop(), 0);
});
