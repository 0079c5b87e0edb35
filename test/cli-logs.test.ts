/**
 * Logs and progress of the real binary: LOG_LEVEL and LOG_FORMAT (JSON by default, pino-pretty on
 * demand) on `serve`; progress of `migrate` and `data pull` as plain lines in a pipe and redrawn in
 * place on a terminal (a pseudo-terminal from util-linux's `script`); one-shot commands keep stdout
 * for their JSON result and log on stderr.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { freePort } from './helpers/child-process.ts';
import { SHARED_DATA_DIR } from './helpers/harness.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const execFileP = promisify(execFile);
/** The migrations registered in src/db/migrate.ts, by name. */
const MIGRATIONS = [
  ...fs.readFileSync(path.join(ROOT, 'src/db/migrate.ts'), 'utf8').matchAll(/^ {2}'(\d{4}_\w+)': m\d{4},$/gm),
].map((m) => m[1]);

async function vericase(args: string[], env: NodeJS.ProcessEnv) {
  try {
    const { stdout, stderr } = await execFileP(process.execPath, ['bin/vericase.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Runs the binary on a pseudo-terminal (`script`): stdout and stderr arrive together, as on a screen. */
async function onTerminal(args: string[], env: NodeJS.ProcessEnv) {
  const command = [process.execPath, 'bin/vericase.js', ...args].map((a) => `'${a}'`).join(' ');
  try {
    const { stdout } = await execFileP('script', ['-qec', command, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      timeout: 120_000,
    });
    return { code: 0, screen: stdout };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, screen: e.stdout };
  }
}

const ESC = String.fromCharCode(27);
/** Terminal output with its escape character shown as <ESC> (a regex may not hold control characters). */
const visible = (s: string) => s.replaceAll(ESC, '<ESC>');

interface Served {
  child: ChildProcess;
  base: string;
  stdout: () => string;
  stop: () => Promise<number | null>;
}

/** `serve` on PORT, or `worker` with its operations endpoints on VERICASE_WORKER_PORT. */
async function serve(env: NodeJS.ProcessEnv, command: 'serve' | 'worker' = 'serve'): Promise<Served> {
  const port = await freePort();
  const portEnv = command === 'serve' ? { PORT: String(port) } : { VERICASE_WORKER_PORT: String(port) };
  const child = spawn(process.execPath, ['bin/vericase.js', command], {
    cwd: ROOT,
    env: { ...process.env, ...env, ...portEnv, HOST: '127.0.0.1' },
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d) => {
    out += d;
  });
  child.stderr?.on('data', (d) => {
    err += d;
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode;
    child.kill('SIGTERM');
    return new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  };
  // a ceiling for a loaded machine (a worker on a fresh embedded database took over a minute at a
  // load of 20 on 2 cores), not a pace the start must keep
  const deadline = Date.now() + 170_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out}${err}`);
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { child, base, stdout: () => out, stop };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`server did not start: ${out}${err}`);
}

function embedded(): { DATA_DIR: string; DATABASE_URL: string } {
  return { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-logs-')), DATABASE_URL: '' };
}

describe('logs: LOG_LEVEL and LOG_FORMAT', () => {
  test('serve logs JSON lines by default (start-up, migrations, requests with their id); LOG_LEVEL=warn hides info', async () => {
    const env = { ...embedded(), LOG_LEVEL: 'info', LOG_FORMAT: '' };
    const server = await serve(env);
    let out: string;
    try {
      const res = await fetch(`${server.base}/v1/ping`, { headers: { 'x-request-id': 'req-cli-logs-1' } });
      assert.equal(res.status, 401);
    } finally {
      assert.equal(await server.stop(), 0);
      out = server.stdout();
    }
    const lines = out.split('\n').filter((l) => l.startsWith('{'));
    const records = lines.map((l) => JSON.parse(l));
    const pending = records.find((r) => r.msg === 'applying database migrations');
    assert.ok(pending, 'the pending migrations are logged before they run');
    assert.equal(pending.level, 30);
    assert.equal(pending.migrations.length, MIGRATIONS.length);
    assert.deepEqual(records.find((r) => r.msg === 'database migrated')?.migrations, pending.migrations);
    const listening = records.find((r) => r.msg === 'vericase listening');
    assert.equal(listening?.database, 'pglite');
    assert.equal(typeof listening?.time, 'number');
    const request = records.find((r) => r.req?.url === '/v1/ping');
    assert.equal(request?.reqId, 'req-cli-logs-1', 'request lines carry the request id');
    assert.ok(records.some((r) => r.msg === 'shutting down' && r.signal === 'SIGTERM'));
    // the first start's key banner is the one line outside the JSON stream, on purpose
    assert.match(out, /Created workspace "default"/);

    const quiet = await serve({ ...env, LOG_LEVEL: 'warn' });
    await quiet.stop();
    const quietRecords = quiet
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      quietRecords.filter((r) => r.level < 40),
      [],
      'nothing under warn',
    );
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  });

  test('the request log: one line per request by default, only failed requests with LOG_REQUESTS=errors, none with off', async () => {
    const dataDir = embedded();
    const requestLines = async (mode: string | undefined) => {
      const server = await serve({ ...dataDir, LOG_LEVEL: 'info', LOG_FORMAT: '', LOG_REQUESTS: mode ?? '' });
      try {
        // each answer read to its end before the next request: the document is sent compressed, as
        // a stream, and fetch resolves on the headers (its line was logged after the next one's)
        await (
          await fetch(`${server.base}/v1/openapi.json`, { headers: { 'x-request-id': 'req-ok' } })
        ).arrayBuffer();
        await (
          await fetch(`${server.base}/v1/ping`, { headers: { 'x-request-id': 'req-401' } })
        ).arrayBuffer();
        // a URL the router refuses before any hook runs: logged, counted and answered like the rest
        const badUrl = await fetch(`${server.base}/v1/cases/%ZZ`, {
          headers: { 'x-request-id': 'req-bad-url' },
        });
        assert.equal(badUrl.status, 400);
        assert.equal(
          ((await badUrl.json()) as { message: string }).message,
          'The URL is not valid percent-encoded UTF-8',
        );
        assert.equal(badUrl.headers.get('x-request-id'), 'req-bad-url');
        assert.equal(badUrl.headers.get('cache-control'), 'no-store');
        const metrics = await (await fetch(`${server.base}/metrics`)).text();
        assert.match(
          metrics,
          /vericase_http_requests_total\{[^}]*route="unmatched"[^}]*status_code="400"[^}]*\} 1/,
        );
      } finally {
        assert.equal(await server.stop(), 0);
      }
      return server
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .filter((r) => r.reqId?.startsWith('req-'));
    };
    const all = await requestLines(undefined);
    assert.deepEqual(
      all.map((r) => [r.reqId, r.msg, r.req.method, r.req.url, r.res.statusCode, typeof r.responseTime]),
      [
        ['req-ok', 'request completed', 'GET', '/v1/openapi.json', 200, 'number'],
        ['req-401', 'request completed', 'GET', '/v1/ping', 401, 'number'],
        ['req-bad-url', 'request completed', 'GET', '/v1/cases/%ZZ', 400, 'number'],
      ],
      'one line per request, after its answer (no separate "incoming request" line)',
    );
    assert.deepEqual(
      (await requestLines('errors')).map((r) => [r.reqId, r.res.statusCode]),
      [
        ['req-401', 401],
        ['req-bad-url', 400],
      ],
    );
    assert.deepEqual(await requestLines('off'), []);
    const refused = await vericase(['serve'], { ...dataDir, LOG_REQUESTS: 'some' });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /LOG_REQUESTS/);
    fs.rmSync(dataDir.DATA_DIR, { recursive: true, force: true });
  });

  test('LOG_FORMAT=pretty: readable lines (level name, message, fields), no JSON, no colour in a pipe', async () => {
    const env = { ...embedded(), LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' };
    const server = await serve(env);
    await fetch(`${server.base}/v1/ping`);
    assert.equal(await server.stop(), 0);
    const out = server.stdout();
    assert.match(out, /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: vericase listening$/m);
    assert.match(out, /^ {4}database: "pglite"$/m);
    assert.match(out, /INFO: applying database migrations/);
    assert.match(out, /INFO: shutting down\n {4}signal: "SIGTERM"/);
    assert.equal(out.split('\n').filter((l) => l.startsWith('{"level"')).length, 0, 'no JSON line');
    assert.ok(!out.includes(ESC), 'no colour codes when stdout is not a terminal');
    assert.doesNotMatch(out, /"pid"|hostname/);
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  });

  test('one-shot commands keep stdout for their JSON and log on stderr (LOG_LEVEL=info), JSON or pretty', async () => {
    const env = { ...embedded(), LOG_LEVEL: 'info' };
    const created = await vericase(['workspaces', 'create', '--name', 'Logs & Co'], env);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(JSON.parse(created.stdout).name, 'Logs & Co', 'stdout is the JSON result alone');
    const logged = created.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
    assert.ok(logged.some((r) => r.msg === 'database migrated' && r.level === 30));
    const pretty = await vericase(['workspaces', 'create', '--name', 'Pretty'], {
      ...env,
      LOG_FORMAT: 'pretty',
      LOG_LEVEL: 'debug',
    });
    assert.equal(pretty.code, 0, pretty.stderr);
    assert.equal(JSON.parse(pretty.stdout).name, 'Pretty');
    assert.doesNotMatch(pretty.stderr, /^\{"level"/m);
    // on a terminal, pretty lines are coloured (unless NO_COLOR)
    // (NO_COLOR empty: unset, whatever the machine running the test has)
    const colourEnv = { ...env, ...embedded(), LOG_FORMAT: 'pretty', NO_COLOR: '' };
    const coloured = await onTerminal(['workspaces', 'create', '--name', 'Colour'], colourEnv);
    assert.equal(coloured.code, 0, coloured.screen);
    assert.match(visible(coloured.screen), /<ESC>\[32mINFO<ESC>\[39m.*database migrated/);
    fs.rmSync(colourEnv.DATA_DIR, { recursive: true, force: true });
    // without LOG_LEVEL the commands stay quiet (warn)
    const { LOG_LEVEL: _, ...noLevel } = process.env;
    const silent = await execFileP(
      process.execPath,
      ['bin/vericase.js', 'workspaces', 'create', '--name', 'Q'],
      {
        cwd: ROOT,
        env: { ...noLevel, ...env, LOG_LEVEL: '' },
      },
    );
    assert.equal(silent.stderr, '');
    assert.equal(JSON.parse(silent.stdout).name, 'Q');
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  });
});

// its own suite: two worker starts, which a loaded machine can take a minute over
describe('logs of a worker', { timeout: 600_000 }, () => {
  test("the worker's operations port follows LOG_REQUESTS too: one line per request, none with off", async () => {
    const dataDir = embedded();
    const lines = async (mode: string | undefined) => {
      const worker = await serve(
        { ...dataDir, LOG_LEVEL: 'info', LOG_FORMAT: '', LOG_REQUESTS: mode ?? '' },
        'worker',
      );
      try {
        // a worker serves no API: a stray request is a 404, logged like any other request
        assert.equal((await fetch(`${worker.base}/v1/ping`)).status, 404);
      } finally {
        assert.equal(await worker.stop(), 0);
      }
      return worker
        .stdout()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l))
        .filter((r) => r.req || /request/.test(r.msg));
    };
    assert.deepEqual(
      (await lines(undefined)).map((r) => [r.msg, r.req?.method, r.req?.url, r.res?.statusCode]),
      [['request completed', 'GET', '/v1/ping', 404]],
      'one line per request, after its answer (no separate "incoming request" line)',
    );
    assert.deepEqual(await lines('off'), []);
    fs.rmSync(dataDir.DATA_DIR, { recursive: true, force: true });
  });
});

describe('progress of long commands', () => {
  let publisher: http.Server;
  let base: string;
  before(async () => {
    const un = fs.readFileSync(path.join(SHARED_DATA_DIR, 'sanctions', 'un', 'consolidated.xml'));
    publisher = http.createServer((req, res) => {
      if (req.url !== '/un/consolidated.xml') return res.writeHead(404).end();
      res.writeHead(200, { 'content-length': un.length }).end(un);
    });
    await new Promise<void>((r) => publisher.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(publisher.address() as net.AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => publisher.close(() => r())));

  test('migrate: plain lines in a pipe (what it applies, then the outcome), on both databases', async () => {
    const env = { ...embedded(), LOG_LEVEL: 'warn' };
    const first = await vericase(['migrate'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, '');
    const lines = first.stderr.trimEnd().split('\n');
    assert.equal(lines[0], 'Opening the embedded database and migrating it');
    const names = [...MIGRATIONS].sort();
    assert.equal(lines[1], `Applying ${names.length} migrations: ${names.join(', ')}`);
    assert.match(lines[2], new RegExp(`^Applied ${names.length} migrations \\(\\d+\\.\\d s\\)$`));
    assert.equal(lines[3], 'Database is migrated to the latest version.');
    assert.equal(lines.length, 4);
    assert.ok(
      !/\r/.test(first.stderr) && !first.stderr.includes(ESC),
      'no terminal control characters in a pipe',
    );
    const again = await vericase(['migrate'], env);
    assert.equal(again.code, 0);
    assert.match(again.stderr, /^No migration to apply \(\d+\.\d s\)$/m);
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
    if (process.env.DATABASE_URL) {
      // the PostgreSQL run: the suite's database (already migrated by the harness, or not yet)
      const pg = await vericase(['migrate'], { DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'warn' });
      assert.equal(pg.code, 0, pg.stderr);
      assert.match(pg.stderr, /^Opening the PostgreSQL database and migrating it\n/);
      assert.match(
        pg.stderr,
        /(Applied \d+ migrations?|No migration to apply) \(\d+\.\d s\)\nDatabase is migrated/,
      );
    }
  });

  test('migrate on a terminal: one line redrawn in place (spinner, elapsed time), then its outcome', async () => {
    const env = { ...embedded(), LOG_LEVEL: 'warn' };
    const { code, screen: raw } = await onTerminal(['migrate'], env);
    const screen = visible(raw);
    assert.equal(code, 0, screen);
    assert.match(
      screen,
      /\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Opening the embedded database and migrating it {2}\d+\.\d s<ESC>\[K/,
    );
    assert.match(
      screen,
      new RegExp(
        `\\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Applying ${MIGRATIONS.length} migrations \\(0001_foundation … \\d{4}_\\w+\\)`,
      ),
    );
    assert.match(
      screen,
      new RegExp(`\\r✔ Applied ${MIGRATIONS.length} migrations \\(\\d+\\.\\d s\\)<ESC>\\[K\\r?\\n`),
    );
    assert.match(screen, /Database is migrated to the latest version\./);
    fs.rmSync(env.DATA_DIR, { recursive: true, force: true });
  });

  test('db backup and restore: their steps as lines in a pipe, redrawn on a terminal', async () => {
    const source = { ...embedded(), LOG_LEVEL: 'warn' };
    assert.equal((await vericase(['workspaces', 'create', '--name', 'Backed'], source)).code, 0);
    fs.mkdirSync(path.join(source.DATA_DIR, 'files', 'ws'), { recursive: true });
    for (const n of [1, 2, 3])
      fs.writeFileSync(path.join(source.DATA_DIR, 'files', 'ws', `f${n}`), `file ${n}`);
    const archive = path.join(source.DATA_DIR, '..', `${path.basename(source.DATA_DIR)}.tar.gz`);
    const backup = await vericase(['db', 'backup', '--out', archive], source);
    assert.equal(backup.code, 0, backup.stderr);
    assert.deepEqual(backup.stderr.trimEnd().split('\n'), [
      'Copying the embedded database',
      `Packing the database and 3 files (0.0 MB) into ${archive}`,
      backup.stderr.split('\n')[2], // the archive's size and the time taken
      `Backed up the embedded database and 3 files into ${archive} (${fs.statSync(archive).size} bytes).`,
    ]);
    assert.match(backup.stderr.split('\n')[2], /^Archive written \(\d+\.\d MB\) \(\d+\.\d s\)$/);
    const target = { ...embedded(), LOG_LEVEL: 'warn' };
    const { code, screen: raw } = await onTerminal(['db', 'restore', '--in', archive], target);
    assert.equal(code, 0, raw);
    const screen = visible(raw);
    assert.match(screen, new RegExp(`\\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Unpacking ${archive.replaceAll('.', '\\.')}`));
    assert.match(screen, /\r[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Restoring the embedded database/);
    assert.match(screen, /\r✔ Restore complete \(\d+\.\d s\)<ESC>\[K\r?\n/);
    assert.match(screen, /Restored the embedded database from .* and 3 files/);
    assert.equal(fs.readFileSync(path.join(target.DATA_DIR, 'files', 'ws', 'f2'), 'utf8'), 'file 2');
    // refused in a pipe: the step's line, then the reason, exit 1
    const again = await vericase(['db', 'restore', '--in', archive], target);
    assert.equal(again.code, 1);
    assert.match(
      again.stderr,
      /^Unpacking .*\nRefusing to overwrite .*not empty\. Pass --force to replace\.\n$/,
    );
    for (const p of [source.DATA_DIR, target.DATA_DIR, archive])
      fs.rmSync(p, { recursive: true, force: true });
  });

  test('data pull on a terminal: a bar per file redrawn in place; in a pipe, one line per finished file', async () => {
    const env = {
      ...embedded(),
      VERICASE_PULL_SOURCES: 'un',
      VERICASE_PULL_URL_UN: `${base}/un/consolidated.xml`,
    };
    const tty = await onTerminal(['data', 'pull'], env);
    assert.equal(tty.code, 0, tty.screen);
    assert.match(visible(tty.screen), /\r\[1\/1\] un consolidated\.xml\s+\[#{24}\] 100% .*<ESC>\[K\r?\n/);
    assert.match(tty.screen, /Switched to \d{8}T\d{6}Z/);
    // in a pipe: no redraw, the finished file's line, then the JSON result on stdout
    const env2 = { ...env, DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-logs-')) };
    const piped = await vericase(['data', 'pull', '--keep', '1'], env2);
    assert.equal(piped.code, 0, piped.stderr);
    assert.doesNotMatch(piped.stderr, /\r/);
    assert.match(piped.stderr, /^\[1\/1\] un consolidated\.xml\s+\[#{24}\] 100%/m);
    assert.equal(JSON.parse(piped.stdout).status, 'updated');
    for (const dir of [env.DATA_DIR, env2.DATA_DIR]) fs.rmSync(dir, { recursive: true, force: true });
  });
});
