import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { Ajv, type AnySchema, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { customFormats } from '../src/http/schema-formats.ts';

// Through the real binary on the embedded database (a first start needs an empty one): the
// first-start admin and `vericase users create`. The code under both is the API's (users API
// tests run on both databases).
const ROOT = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

function cliEnv(dataDir: string, extra: Record<string, string> = {}) {
  return {
    ...process.env,
    DATABASE_URL: '',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    VERICASE_REFERENCE_DIR: path.resolve(ROOT, '../shared/data'),
    ...extra,
  };
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

async function startServer(env: NodeJS.ProcessEnv, port: number) {
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
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, output: () => out };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGTERM');
  throw new Error(`server did not start: ${out}`);
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  child.kill('SIGTERM');
  return new Promise((r) => child.once('exit', (code) => r(code)));
}

async function signIn(base: string, body: Record<string, string>) {
  const res = await fetch(`${base}/console/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { user: { role: string }; workspace: { name: string } };
  return { status: res.status, body: json, cookie: res.headers.getSetCookie()[0] ?? '' };
}

// each command and server start opens the embedded database: minutes on a loaded machine
describe('console users from the command line', { timeout: 600_000 }, () => {
  test('the first start creates admin@localhost and prints its password once with the console URL', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-console-boot-'));
    const env = cliEnv(dir);
    const first = await startServer(env, 3110);
    let password: string;
    try {
      const out = first.output();
      assert.match(out, /Created workspace "default"/);
      assert.match(out, /Console: http:\/\/127\.0\.0\.1:3110\/console\//);
      const m = /Sign in as admin@localhost with this password[^\n]*\n\n {2}(\S+)\n/.exec(out);
      assert.ok(m, out);
      password = m[1];
      assert.match(password, /^[A-Za-z0-9]{20}$/);
      const login = await signIn(first.base, { email: 'admin@localhost', password });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      assert.equal(login.body.user.role, 'admin');
      assert.equal(login.body.workspace.name, 'default');
      // the session works on /v1, over a real socket
      const users = await fetch(`${first.base}/v1/users`, {
        headers: { cookie: login.cookie.split(';')[0] },
      });
      assert.equal(users.status, 200);
      const list = (await users.json()) as { data: { email: string }[] };
      assert.equal(list.data[0].email, 'admin@localhost');
      // a client validating answers against the served document accepts that list (the User schema
      // declared the e-mail format, which admin@localhost fails)
      const doc = (await (await fetch(`${first.base}/v1/openapi.json`)).json()) as AnySchema;
      const ajv = new Ajv({ strict: false, allErrors: true });
      (addFormats as unknown as (a: Ajv) => void)(ajv);
      for (const name of Object.keys(customFormats)) ajv.addFormat(name, true);
      ajv.addSchema(doc, 'doc');
      const validate = ajv.getSchema(
        'doc#/paths/~1v1~1users/get/responses/200/content/application~1json/schema',
      ) as ValidateFunction;
      assert.ok(validate(list), JSON.stringify(validate.errors));
    } finally {
      assert.equal(await stop(first.child), 0);
    }
    const again = await startServer(env, 3111);
    try {
      assert.doesNotMatch(again.output(), /Sign in as|Console:/);
      assert.equal((await signIn(again.base, { email: 'admin@localhost', password })).status, 200);
    } finally {
      await stop(again.child);
    }

    // VERICASE_BOOTSTRAP_ADMIN_EMAIL names the first admin
    const dir2 = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-console-boot-'));
    const other = await startServer(
      cliEnv(dir2, { VERICASE_BOOTSTRAP_ADMIN_EMAIL: 'ops@example.test' }),
      3112,
    );
    try {
      assert.match(other.output(), /Sign in as ops@example\.test with this password/);
    } finally {
      await stop(other.child);
    }
  });

  test('users create: prints the user and its password as JSON; refusals are one line with their exit code', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-console-cli-'));
    const env = cliEnv(dir);
    const ws = JSON.parse((await cli(['workspaces', 'create', '--name', 'Acme Compliance'], env)).stdout);

    const made = await cli(
      [
        'users',
        'create',
        '--workspace',
        'Acme Compliance',
        '--email',
        'rita@example.test',
        '--role',
        'reviewer',
        '--first-name',
        'Rita',
        '--last-name',
        'Reviewer',
      ],
      env,
    );
    assert.equal(made.code, 0, made.stderr);
    const user = JSON.parse(made.stdout);
    assert.equal(user.email, 'rita@example.test');
    assert.equal(user.role, 'reviewer');
    assert.equal(user.first_name, 'Rita');
    assert.deepEqual(user.workspace, { id: ws.id, name: 'Acme Compliance' });
    assert.match(user.password, /^[A-Za-z0-9]{20}$/);

    const chosen = await cli(
      [
        'users',
        'create',
        '--workspace',
        ws.id,
        '--email',
        'ada@example.test',
        '--role',
        'admin',
        '--password',
        'chosen-password-9',
      ],
      env,
    );
    assert.equal(chosen.code, 0, chosen.stderr);
    assert.equal(JSON.parse(chosen.stdout).password, 'chosen-password-9');

    // a second workspace with the same name: the name no longer says which one (it used to pick
    // the older silently); the id still does
    const twin = JSON.parse((await cli(['workspaces', 'create', '--name', 'Acme Compliance'], env)).stdout);
    const refusals: [string[], number, RegExp][] = [
      [
        ['--workspace', 'Acme Compliance', '--email', 'x@example.test', '--role', 'admin'],
        2,
        new RegExp(
          `^vericase users create: 2 workspaces are named "Acme Compliance" \\(${ws.id}, ${twin.id}\\): give --workspace the id\\.`,
        ),
      ],
      [
        ['--workspace', ws.id, '--email', 'x@example.test', '--role', 'owner'],
        2,
        /--role must be admin, reviewer or viewer/,
      ],
      [
        ['--workspace', ws.id, '--email', 'x@example.test', '--role', 'viewer', '--password', 'short'],
        2,
        /--password/,
      ],
      [['--workspace', ws.id, '--role', 'viewer'], 2, /--email/],
      [
        ['--workspace', 'Nobody', '--email', 'x@example.test', '--role', 'viewer'],
        1,
        /^vericase users create: no workspace with id or name Nobody/,
      ],
      [['--workspace', ws.id, '--email', 'RITA@example.test', '--role', 'viewer'], 1, /already exists/],
    ];
    for (const [args, code, message] of refusals) {
      const res = await cli(['users', 'create', ...args], env);
      assert.equal(res.code, code, `${args.join(' ')}: ${res.stderr}`);
      assert.match(res.stderr, message);
      assert.equal(res.stderr.trim().split('\n').length, 1, res.stderr);
      assert.equal(res.stdout, '');
    }
    // keys create takes the workspace the same way: a shared name is refused, the id is not
    const twinKey = await cli(['keys', 'create', '--workspace', 'Acme Compliance'], env);
    assert.equal(twinKey.code, 2, twinKey.stderr);
    assert.match(
      twinKey.stderr,
      /^vericase keys create: 2 workspaces are named "Acme Compliance" .*: give --workspace the id\./,
    );
    assert.equal(twinKey.stdout, '');
    const twinById = await cli(['keys', 'create', '--workspace', twin.id], env);
    assert.equal(twinById.code, 0, twinById.stderr);
    assert.equal(JSON.parse(twinById.stdout).workspace_id, twin.id);

    const server = await startServer(env, 3113);
    try {
      const rita = await signIn(server.base, { email: 'rita@example.test', password: user.password });
      assert.equal(rita.status, 200);
      assert.equal(rita.body.user.role, 'reviewer');
      assert.equal(
        (await signIn(server.base, { email: 'ada@example.test', password: 'chosen-password-9' })).status,
        200,
      );
    } finally {
      await stop(server.child);
    }
  });
});
