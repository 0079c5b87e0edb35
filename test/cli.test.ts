import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { freePort } from './helpers/child-process.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

function cliEnv(dataDir: string, extra: Record<string, string> = {}) {
  return { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra };
}

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/vericase.js', ...args], { cwd: ROOT, env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function startServer(
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/vericase.js', 'serve'], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
  });
  let out = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    out += d;
  });
  const base = `http://127.0.0.1:${port}`;
  // a fresh embedded database on a loaded machine (the suite runs files in parallel) took over 30 s
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, output: () => out };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start: ${out}`);
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  child.kill('SIGTERM');
  return new Promise((r) => child.once('exit', (code) => r(code)));
}

describe('command line', () => {
  test('workspaces create, keys create/revoke, the data-dir lock, admin endpoint, graceful stop', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-cli-'));
    const env = cliEnv(dir, { VERICASE_ADMIN_TOKEN: 'admin-secret' });
    const created = await cli(['workspaces', 'create', '--name', 'Acme Compliance'], env);
    assert.equal(created.code, 0, created.stderr);
    const ws = JSON.parse(created.stdout);
    assert.equal(ws.name, 'Acme Compliance');
    assert.match(ws.api_key, /^vk_/);
    const key2 = JSON.parse((await cli(['keys', 'create', '--workspace', ws.id], env)).stdout);
    assert.match(key2.api_key, /^vk_/);
    assert.equal(key2.name, null);
    // a key named for what it is for, as the API and the console list it
    const named = await cli(['keys', 'create', '--workspace', ws.id, '--name', ' CRM integration '], env);
    assert.equal(named.code, 0, named.stderr);
    assert.equal(JSON.parse(named.stdout).name, 'CRM integration');
    assert.notEqual(key2.api_key, ws.api_key);
    const revoked = await cli(['keys', 'revoke', '--id', key2.id], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    // by name, as users create takes it (it answered 'No workspace with id Acme Compliance', exit 1)
    const byName = await cli(['keys', 'create', '--workspace', 'Acme Compliance'], env);
    assert.equal(byName.code, 0, byName.stderr);
    assert.equal(JSON.parse(byName.stdout).workspace_id, ws.id);
    assert.equal((await cli(['keys', 'revoke', JSON.parse(byName.stdout).api_key], env)).code, 0);
    assert.equal(
      (await cli(['keys', 'create', '--workspace', '00000000-0000-4000-8000-000000000000'], env)).code,
      1,
    );
    assert.equal((await cli(['workspaces', 'create'], env)).code, 2);
    assert.equal((await cli(['frobnicate'], env)).code, 2);

    const server = await startServer({ ...env, LOG_LEVEL: 'info' });
    try {
      // a workspace already exists: no default workspace is created, no key printed
      assert.doesNotMatch(server.output(), /Created workspace "default"/);
      const ping = await fetch(`${server.base}/v1/ping`, { headers: { 'x-service-api-key': ws.api_key } });
      assert.equal(ping.status, 200);
      assert.deepEqual(await ping.json(), { workspace_name: 'Acme Compliance' });
      const listed = await fetch(`${server.base}/v1/api-keys`, {
        headers: { 'x-service-api-key': ws.api_key },
      });
      const names = ((await listed.json()) as { data: { name: string | null }[] }).data.map((k) => k.name);
      assert.ok(names.includes('CRM integration'), JSON.stringify(names));
      const revokedPing = await fetch(`${server.base}/v1/ping`, {
        headers: { 'x-service-api-key': key2.api_key },
      });
      assert.equal(revokedPing.status, 401);
      // a second process on the same DATA_DIR refuses to start
      const second = await cli(['workspaces', 'create', '--name', 'x'], env);
      assert.equal(second.code, 3);
      assert.match(second.stderr, /already in use by process/);
      // operator endpoint
      const denied = await fetch(`${server.base}/admin/workspaces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"b"}',
      });
      assert.equal(denied.status, 401);
      const admin = await fetch(`${server.base}/admin/workspaces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer admin-secret' },
        body: JSON.stringify({ name: 'Beta' }),
      });
      assert.equal(admin.status, 201);
      const beta = (await admin.json()) as any;
      const betaPing = await fetch(`${server.base}/v1/ping`, {
        headers: { 'x-service-api-key': beta.api_key },
      });
      assert.deepEqual(await betaPing.json(), { workspace_name: 'Beta' });
      const log = server
        .output()
        .split('\n')
        .find((l) => l.includes('"vericase listening"'));
      assert.ok(log, 'structured JSON start-up log');
      assert.equal(JSON.parse(log as string).database, 'pglite');
    } finally {
      assert.equal(await stop(server.child), 0, 'graceful exit on SIGTERM');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('first start prints a default key once; the bootstrap key makes sure default exists; no admin token → 404', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-cli-'));
    const first = await startServer(cliEnv(dir));
    const key = /\n\s+(vk_[A-Za-z0-9_-]+)\n/.exec(first.output())?.[1];
    assert.ok(key, first.output());
    const ping = await fetch(`${first.base}/v1/ping`, { headers: { 'x-service-api-key': key } });
    assert.deepEqual(await ping.json(), { workspace_name: 'default' });
    const off = await fetch(`${first.base}/admin/workspaces`, { method: 'POST' });
    assert.equal(off.status, 404);
    // the operator learns how to turn them on
    assert.match(
      ((await off.json()) as { message: string }).message,
      /off until VERICASE_ADMIN_TOKEN is set/,
    );
    await stop(first.child);
    const again = await startServer(cliEnv(dir, { VERICASE_BOOTSTRAP_API_KEY: 'vk_dev_bootstrap_key' }));
    assert.doesNotMatch(again.output(), /Created workspace/);
    const boot = await fetch(`${again.base}/v1/ping`, {
      headers: { 'x-service-api-key': 'vk_dev_bootstrap_key' },
    });
    assert.deepEqual(await boot.json(), { workspace_name: 'default' });
    assert.equal(
      (await fetch(`${again.base}/v1/ping`, { headers: { 'x-service-api-key': key } })).status,
      200,
    );
    await stop(again.child);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

// their own suite: the one above is near the runner's per-suite time on a loaded machine
describe('command line: blank options, a missing reference directory', () => {
  test('workspaces create --name "": the name must not be empty (not "not specified"), exit 2', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-cli-'));
    const env = cliEnv(dir);
    for (const name of ['', '   ']) {
      const res = await cli(['workspaces', 'create', '--name', name], env);
      assert.equal(res.code, 2, res.stderr);
      assert.match(res.stderr, /option '--name <name>' must not be empty/);
      assert.doesNotMatch(res.stderr, /not specified/);
      assert.equal(res.stdout, '', 'no workspace printed');
    }
    // the other required options say the same of a blank value
    const keys = await cli(['keys', 'create', '--workspace', ''], env);
    assert.equal(keys.code, 2);
    assert.match(keys.stderr, /option '--workspace <id\|name>' must not be empty/);
    // left out, an option is still "not specified"
    assert.match(
      (await cli(['workspaces', 'create'], env)).stderr,
      /required option '--name <name>' not specified/,
    );
    // given twice, an option is refused: commander kept the last one and created "b"
    for (const args of [
      ['workspaces', 'create', '--name', 'a', '--name', 'b'],
      ['workspaces', 'create', '--name=a', '--name', 'b'],
    ]) {
      const twice = await cli(args, env);
      assert.equal(twice.code, 2, twice.stderr);
      assert.match(twice.stderr, /option '--name <name>' is given more than once/);
      assert.equal(twice.stdout, '', 'no workspace printed');
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a blank optional option or argument is refused like a blank required one, on every command, exit 2', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-cli-'));
    const env = cliEnv(dir);
    const ws = await cli(['workspaces', 'create', '--name', 'Blank options'], env);
    assert.equal(ws.code, 0, ws.stderr);
    const workspaceId = JSON.parse(ws.stdout).id;
    const user = [
      'users',
      'create',
      '--workspace',
      workspaceId,
      '--email',
      'blank@example.com',
      '--role',
      'viewer',
    ];
    const refusals: [string[], RegExp][] = [
      [[...user, '--first-name', ''], /option '--first-name <name>' must not be empty/],
      [[...user, '--last-name', '   '], /option '--last-name <name>' must not be empty/],
      [[...user, '--password', ''], /option '--password <password>' must not be empty/],
      [['keys', 'revoke', '--id', ' '], /option '--id <key_id>' must not be empty/],
      [['keys', 'revoke', '--key', ''], /option '--key <api_key>' must not be empty/],
      [['keys', 'revoke', '  '], /argument 'api_key' must not be empty/],
      [['keys', 'revoke', '--id', 'notauuid'], /option '--id <key_id>' must be a key id/],
      [
        ['keys', 'create', '--workspace', workspaceId, '--name', ''],
        /option '--name <name>' must not be empty/,
      ],
      [['data', 'pull', '--keep', ''], /option '--keep <n>' must not be empty/],
    ];
    for (const [args, message] of refusals) {
      const res = await cli(args, env);
      assert.equal(res.code, 2, `${args.join(' ')}: ${res.stderr}`);
      assert.match(res.stderr, message, args.join(' '));
      assert.equal(res.stdout, '', `${args.join(' ')}: nothing done`);
    }
    // nothing was created: the same user, with its names, is created now
    const created = await cli([...user, '--first-name', 'Ada', '--last-name', 'Lovelace'], env);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(JSON.parse(created.stdout).first_name, 'Ada');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a VERICASE_REFERENCE_DIR that does not exist is reported as such, at start-up and in /readyz', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-cli-'));
    const missing = path.join(dir, 'no-such-lists');
    const server = await startServer(cliEnv(dir, { VERICASE_REFERENCE_DIR: missing }));
    try {
      let screening: { status?: string; message?: string } = {};
      // until the first load is over (the lists load in the background after the server listens)
      const loading = () => screening.status !== 'fail' || /still loading/.test(screening.message ?? '');
      for (let i = 0; i < 200 && loading(); i++) {
        const ready = (await (await fetch(`${server.base}/readyz`)).json()) as {
          checks: Record<string, any>;
        };
        screening = ready.checks.screening ?? {};
        if (loading()) await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(screening.status, 'fail', JSON.stringify(screening));
      assert.match(screening.message ?? '', new RegExp(`the reference directory ${missing} does not exist`));
      assert.doesNotMatch(screening.message ?? '', /holds no list files/);
      assert.match(server.output(), new RegExp(`the reference directory ${missing} does not exist`));
      // an empty directory created there: the message follows (no list files, not "does not exist")
      fs.mkdirSync(missing);
      const ready = (await (await fetch(`${server.base}/readyz`)).json()) as { checks: Record<string, any> };
      assert.match(ready.checks.screening.message, /holds no list files/);
    } finally {
      await stop(server.child);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a secret shown once that cannot be written (a full disk) is exit 1, saying what was created and how to undo it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-cli-'));
    const env = cliEnv(dir);
    const full = fs.openSync('/dev/full', 'w');
    const toFull = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/vericase.js', ...args], {
          cwd: ROOT,
          env,
          stdio: ['ignore', full, 'pipe'],
        });
        let stderr = '';
        child.stderr?.on('data', (d) => {
          stderr += d;
        });
        child.once('close', (code) => resolve({ code, stderr }));
      });
    try {
      const ws = await toFull(['workspaces', 'create', '--name', 'Lost']);
      assert.equal(ws.code, 1, ws.stderr);
      assert.match(
        ws.stderr,
        /could not write the result to standard output \(ENOSPC\): workspace [0-9a-f-]{36} was created, but its API key \(shown only there\) is lost: revoke key [0-9a-f-]{36}/,
      );
      const key = await toFull(['keys', 'create', '--workspace', 'Lost']);
      assert.equal(key.code, 1, key.stderr);
      const keyId = /API key ([0-9a-f-]{36}) was created/.exec(key.stderr)?.[1];
      assert.ok(keyId, key.stderr);
      // what it says to do works: the key it names is there, and revoking it is the way out
      const revoked = await cli(['keys', 'revoke', '--id', keyId], env);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.deepEqual(JSON.parse(revoked.stdout), { id: keyId, revoked: true });
      const user = await toFull([
        'users',
        'create',
        '--workspace',
        'Lost',
        '--email',
        'lost@example.com',
        '--role',
        'viewer',
      ]);
      assert.equal(user.code, 1, user.stderr);
      assert.match(
        user.stderr,
        /user [0-9a-f-]{36} was created, but its generated password \(shown only there\) is lost/,
      );
    } finally {
      fs.closeSync(full);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("keys revoke - reads the key from standard input (kept out of ps and the shell's history)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-cli-'));
    const env = cliEnv(dir);
    const withInput = (args: string[], input: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['bin/vericase.js', ...args], { cwd: ROOT, env });
        let stdout = '';
        let stderr = '';
        child.stdout?.on('data', (d) => {
          stdout += d;
        });
        child.stderr?.on('data', (d) => {
          stderr += d;
        });
        child.once('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin?.end(input);
      });
    try {
      const ws = JSON.parse((await cli(['workspaces', 'create', '--name', 'Piped'], env)).stdout);
      const key = JSON.parse((await cli(['keys', 'create', '--workspace', ws.id], env)).stdout);
      const revoked = await withInput(['keys', 'revoke', '-'], `${key.api_key}\n`);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.deepEqual(JSON.parse(revoked.stdout), { id: key.id, revoked: true });
      // the same key again: already revoked
      const again = await withInput(['keys', 'revoke', '-'], key.api_key);
      assert.equal(again.code, 1, again.stderr);
      assert.match(again.stderr, /no active key matches/);
      const empty = await withInput(['keys', 'revoke', '-'], '\n');
      assert.equal(empty.code, 2, empty.stderr);
      assert.match(empty.stderr, /no key on standard input/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
