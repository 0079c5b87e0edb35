/**
 * `npm start` stopped by a signal sent to the npm process (a process manager, `kill <npm's pid>`),
 * not to the whole process group as Ctrl-C at a terminal does. npm forwards SIGTERM and SIGINT to
 * the shell it runs the script in; that shell (dash) kept waiting for the server, which never heard
 * it: npm, the shell and the server all stayed up. The start script now `exec`s node, so the process
 * npm forwards to is the server, which stops gracefully and npm exits 0.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, test } from 'node:test';
import { healthy, sleep, waitUntil } from '../drills/_lib.ts';
import { captureOutput, freePort } from './helpers/child-process.ts';
import { cleanupsAfter, ownDatabaseEnv } from './helpers/own-server.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const cleanups = cleanupsAfter(after);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} to the npm process of npm start stops the server gracefully; npm exits 0`, {
    timeout: 180_000,
  }, async () => {
    const port = await freePort();
    const env = {
      ...process.env,
      ...(await ownDatabaseEnv(`npm-start-${signal.toLowerCase()}`, cleanups)),
      // npm and the script's `node` from the Node that runs the tests (the one node_modules brings)
      PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      VERICASE_SCREENING_WATCH_SECONDS: '0',
    };
    // its own process group, so that the cleanup can end what it started (npm, the shell, node)
    // whatever this test saw; the signal under test goes to npm's pid only
    const npm = spawn('npm', ['start'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const out = captureOutput(npm);
    const exited = new Promise<number | null>((r) => npm.once('exit', (code) => r(code)));
    cleanups.push(async () => {
      try {
        process.kill(-(npm.pid ?? 0), 'SIGKILL');
      } catch {
        // already gone
      }
    });
    const base = `http://127.0.0.1:${port}`;
    assert.ok(
      await waitUntil(() => healthy(base, 1000), 120_000),
      `the server answers /healthz:\n${out.text}`,
    );
    // the first start's message is still printed through npm start (it is the terminal's)
    assert.match(out.text, /Its API key \(shown once, store it now\):\s+vk_/);

    npm.kill(signal);
    const code = await Promise.race([exited, sleep(30_000).then(() => 'still running' as const)]);
    assert.equal(code, 0, `npm after ${signal}: ${code}\n${out.text.slice(-3000)}`);
    const records = out.text
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; signal?: string });
    assert.ok(
      records.some((r) => r.msg === 'shutting down' && r.signal === signal),
      'the server heard the signal',
    );
    assert.ok(
      records.some((r) => r.msg === 'shut down'),
      'the server stopped gracefully',
    );
    assert.equal(await healthy(base, 1000), false, 'nothing listens on the port any more');
  });
}

test('SIGTERM to the npm process of npx vericase serve stops the server too (npx runs it under a shell that does not pass it on)', {
  timeout: 180_000,
}, async () => {
  const port = await freePort();
  const env = {
    ...process.env,
    ...(await ownDatabaseEnv('npx-serve-sigterm', cleanups)),
    PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    VERICASE_SCREENING_WATCH_SECONDS: '0',
  };
  const npx = spawn('npx', ['vericase', 'serve'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const out = captureOutput(npx);
  cleanups.push(async () => {
    try {
      process.kill(-(npx.pid ?? 0), 'SIGKILL');
    } catch {
      // already gone
    }
  });
  const base = `http://127.0.0.1:${port}`;
  assert.ok(await waitUntil(() => healthy(base, 1000), 120_000), `the server answers /healthz:\n${out.text}`);
  npx.kill('SIGTERM');
  // npm goes at once; the server, left to another parent, stops within its poll and graceful stop
  assert.ok(
    await waitUntil(async () => !(await healthy(base, 1000)), 30_000),
    `the server still answers after npx was stopped:\n${out.text.slice(-3000)}`,
  );
  // the graceful stop, to its end, logged on the output it still has
  const logged = (msg: string, signal?: string) =>
    out.text
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg?: string; signal?: string })
      .some((r) => r.msg === msg && (signal === undefined || r.signal === signal));
  assert.ok(logged('shutting down', 'npx exited'), `the server saw npx go:\n${out.text.slice(-3000)}`);
  assert.ok(await waitUntil(async () => logged('shut down'), 20_000), out.text.slice(-3000));
});
