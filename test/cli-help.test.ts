/**
 * The command line's help, version, usage errors and exit codes, through the real binary
 * (bin/vericase.js) as an operator runs it. Help must have no side effect: the tests point
 * DATA_DIR at a directory that does not exist and DATABASE_URL at a port nothing listens on, and
 * check the directory is still absent afterwards (opening the database would create it or fail).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/program.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const execFileP = promisify(execFile);
const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;

interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

async function vericase(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Result> {
  try {
    const { stdout, stderr } = await execFileP(process.execPath, ['bin/vericase.js', ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A loopback port nothing listens on (taken from the OS, then released). */
async function closedPort(): Promise<number> {
  const srv = net.createServer().listen(0, '127.0.0.1');
  await new Promise((r) => srv.once('listening', r));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((r) => srv.close(r));
  return port;
}

/** The subcommand names listed under "Commands:" in a help text (the `help` command left out). */
function listedCommands(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1];
  if (!section) return [];
  const names: string[] = [];
  for (const line of section.split('\n').slice(1)) {
    if (line.trim() === '') break;
    const m = /^ {2}([a-z][\w-]*)/.exec(line);
    if (m && m[1] !== 'help') names.push(m[1]);
  }
  return names;
}

/** Every command path of the program as built in src/cli/program.ts. */
function programPaths(cmd: Command, prefix: string[] = []): string[][] {
  const out: string[][] = [];
  for (const sub of cmd.commands) {
    if (sub.name() === 'help') continue;
    const p = [...prefix, sub.name()];
    out.push(p, ...programPaths(sub, p));
  }
  return out;
}

/** Runs `fn` over the items, two at a time (the machine has two cores). */
async function eachPair<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += 2) await Promise.all(items.slice(i, i + 2).map(fn));
}

function assertOneLineUsageError(r: Result, command: string, pattern: RegExp): void {
  assert.equal(r.code, 2, `${command}: ${r.stderr}`);
  assert.equal(r.stdout, '', `${command}: nothing on stdout`);
  const lines = r.stderr.trimEnd().split('\n');
  assert.equal(lines.length, 1, `${command}: one line, got ${JSON.stringify(r.stderr)}`);
  assert.match(lines[0], pattern, command);
  assert.doesNotMatch(r.stderr, /\n\s+at /, `${command}: no stack trace`);
}

describe('vericase command line: help, version, usage errors, exit codes', () => {
  test('--help on every command and subcommand prints its usage on stdout, exits 0 and opens nothing', async () => {
    const dataDir = path.join(os.tmpdir(), `vericase-help-${process.pid}-absent`);
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: `postgres://postgres@127.0.0.1:${await closedPort()}/nothing`,
      PORT: String(await closedPort()),
    };
    // walk the tree the binary shows, from the top
    const top = await vericase(['--help'], env);
    assert.equal(top.code, 0, top.stderr);
    assert.equal(top.stderr, '');
    assert.match(top.stdout, /^Usage: vericase \[options\] \[command\]/);
    assert.match(
      top.stdout,
      /Exit codes:\n {2}0 {2}done\n {2}1 .*\n {2}2 {2}usage.*\n {2}3 .*DATA_DIR.*\n {2}4 /,
    );
    assert.match(top.stdout, /LOG_FORMAT +json \(default.*or pretty/);
    const seen: string[][] = [];
    let level = listedCommands(top.stdout).map((n) => [n]);
    while (level.length) {
      const next: string[][] = [];
      await eachPair(level, async (cmd) => {
        seen.push(cmd);
        for (const args of [
          [...cmd, '--help'],
          [...cmd, '-h'],
          ['help', ...cmd],
        ]) {
          // `help a b` is commander's help command at the top: it shows the help of `a`
          if (args[0] === 'help' && cmd.length > 1) continue;
          const r = await vericase(args, env);
          assert.equal(r.code, 0, `vericase ${args.join(' ')}: ${r.stderr}`);
          assert.equal(r.stderr, '', `vericase ${args.join(' ')}: nothing on stderr`);
          assert.match(
            r.stdout,
            new RegExp(`^Usage: vericase ${cmd.join(' ')} \\[options\\]`),
            `vericase ${args.join(' ')}`,
          );
          assert.match(r.stdout, /-h, --help +show this help and exit/);
          if (args.at(-1) === '--help') for (const sub of listedCommands(r.stdout)) next.push([...cmd, sub]);
        }
      });
      level = next;
    }
    // the walk met every command of the program, and the program has the commands of the README
    const expected = programPaths(buildProgram(() => undefined)).map((p) => p.join(' '));
    assert.deepEqual(seen.map((p) => p.join(' ')).sort(), [...expected].sort());
    for (const cmd of [
      'serve',
      'worker',
      'migrate',
      'workspaces create',
      'keys create',
      'keys revoke',
      'users create',
      'data pull',
      'data status',
      'db backup',
      'db restore',
    ])
      assert.ok(expected.includes(cmd), `${cmd} is a command`);
    // help with options it would otherwise refuse still only prints the help
    const withBadOption = await vericase(['data', 'pull', '--keep', 'x', '--help'], env);
    assert.equal(withBadOption.code, 0);
    assert.match(withBadOption.stdout, /^Usage: vericase data pull/);
    assert.match(withBadOption.stdout, /--keep <n> +how many pulled versions to keep/);
    // nothing opened: no DATA_DIR was created, and serve --help did not listen
    assert.equal(fs.existsSync(dataDir), false, 'help created no DATA_DIR');
    const probe = net.connect(Number(env.PORT), '127.0.0.1');
    const refused = await new Promise<boolean>((r) => {
      probe.once('error', () => r(true));
      probe.once('connect', () => {
        probe.destroy();
        r(false);
      });
    });
    assert.equal(refused, true, 'serve --help did not start a server');
  });

  test('no command prints the help (exit 0); --version and -V print the version', async () => {
    const bare = await vericase([]);
    assert.equal(bare.code, 0);
    assert.match(bare.stdout, /^Usage: vericase/);
    for (const flag of ['--version', '-V']) {
      const v = await vericase([flag]);
      assert.equal(v.code, 0, v.stderr);
      assert.equal(v.stdout, `${VERSION}\n`);
      assert.equal(v.stderr, '');
    }
  });

  test('unknown commands and options, missing or invalid arguments: one line with a hint, exit 2', async () => {
    const dataDir = path.join(os.tmpdir(), `vericase-usage-${process.pid}-absent`);
    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    const cases: [string[], RegExp][] = [
      [['frobnicate'], /^vericase: unknown command 'frobnicate'\. See 'vericase --help'\.$/],
      [['serv'], /^vericase: unknown command 'serv' \(did you mean serve\?\)\. See 'vericase --help'\.$/],
      [['help', 'frobnicate'], /^vericase: unknown command 'frobnicate'\. See 'vericase --help'\.$/],
      [['help', 'users', 'frob'], /^vericase users: unknown command 'frob'\. See 'vericase users --help'\.$/],
      [['--verbose'], /^vericase: unknown option '--verbose'\. See 'vericase --help'\.$/],
      [['-v'], /^vericase: unknown option '-v' \(did you mean --version\?\)\. See 'vericase --help'\.$/],
      [
        ['workspaces', 'create', '--nme', 'Acme'],
        /^vericase workspaces create: unknown option '--nme' \(did you mean --name\?\)\. See 'vericase workspaces create --help'\.$/,
      ],
      [
        ['workspaces', 'create'],
        /^vericase workspaces create: required option '--name <name>' not specified\. See 'vericase workspaces create --help'\.$/,
      ],
      [
        ['workspaces', 'craete'],
        /^vericase workspaces: unknown command 'craete' \(did you mean create\?\)\. See 'vericase workspaces --help'\.$/,
      ],
      [['keys', 'create'], /^vericase keys create: required option '--workspace <id\|name>' not specified/],
      [
        ['keys', 'create', '--workspace'],
        /^vericase keys create: option '--workspace <id\|name>' argument missing/,
      ],
      [['keys', 'revoke'], /^vericase keys revoke: give the key to revoke: --id KEY_ID or --key API_KEY\./],
      [['keys', 'revoke', 'a', 'b'], /^vericase keys revoke: too many arguments/],
      // two keys named at once: refused rather than one silently revoked and the other ignored
      [
        ['keys', 'revoke', '--id', '00000000-0000-4000-8000-000000000000', '--key', 'vk_other'],
        /^vericase keys revoke: give one key to revoke, not 2: --id KEY_ID, --key API_KEY or the key as an argument\./,
      ],
      [
        ['keys', 'revoke', '--key', 'vk_one', 'vk_two'],
        /^vericase keys revoke: give one key to revoke, not 2: --id KEY_ID, --key API_KEY or the key as an argument\./,
      ],
      [
        ['users', 'create', '--workspace', 'default', '--email', 'a@example.com', '--rol', 'admin'],
        /^vericase users create: unknown option '--rol' \(did you mean --role\?\)\. See 'vericase users create --help'\.$/,
      ],
      [
        ['users', 'create', '--email', 'a@example.com'],
        /^vericase users create: required option '--workspace <id\|name>' not specified/,
      ],
      [['migrate', 'now'], /^vericase migrate: too many arguments/],
      [
        ['serve', '--port', '80'],
        /^vericase serve: unknown option '--port'\. See 'vericase serve --help'\.$/,
      ],
      [['data', 'pull', '--keep', '0'], /^vericase data pull: --keep must be a positive integer, got '0'\./],
      [
        ['data', 'pull', '--keep', 'two'],
        /^vericase data pull: --keep must be a positive integer, got 'two'\./,
      ],
      [['db', 'backup'], /^vericase db backup: required option '--out <file>' not specified/],
      [['db', 'restore', '--in'], /^vericase db restore: option '--in <file>' argument missing/],
    ];
    await eachPair(cases, async ([args, pattern]) => {
      assertOneLineUsageError(await vericase(args, env), `vericase ${args.join(' ')}`, pattern);
    });
    // an environment variable the configuration refuses: named, with the program's help to read
    assertOneLineUsageError(
      await vericase(['migrate'], { ...env, LOG_LEVEL: 'loud' }),
      'LOG_LEVEL=loud vericase migrate',
      /^vericase migrate: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"\. See 'vericase --help'\.$/,
    );
    assertOneLineUsageError(
      await vericase(['workspaces', 'create', '--name', 'x'], { ...env, LOG_FORMAT: 'xml' }),
      'LOG_FORMAT=xml',
      /^vericase workspaces create: LOG_FORMAT must be one of json, pretty, got "xml"/,
    );
    assertOneLineUsageError(
      await vericase(['migrate'], { ...env, VERICASE_DB_POOL_MAX: '0' }),
      'VERICASE_DB_POOL_MAX=0',
      /^vericase migrate: VERICASE_DB_POOL_MAX must be a positive integer, got "0"\. See 'vericase --help'\.$/,
    );
    // refused before anything runs: a port Node cannot listen on (it used to migrate, create the
    // workspace and print a console address on that port, then fail with exit 1), a switch with a
    // typo (it used to mean false), a watch interval that is not a number (it used to turn it off)
    assertOneLineUsageError(
      await vericase(['serve'], { ...env, PORT: '70000' }),
      'PORT=70000 vericase serve',
      /^vericase serve: PORT must be a port number from 0 to 65535, got "70000"\. See 'vericase --help'\.$/,
    );
    assertOneLineUsageError(
      await vericase(['serve'], { ...env, VERICASE_RUN_WORKERS: 'flase' }),
      'VERICASE_RUN_WORKERS=flase',
      /^vericase serve: VERICASE_RUN_WORKERS must be true or false, got "flase"\. See 'vericase --help'\.$/,
    );
    assertOneLineUsageError(
      await vericase(['serve'], { ...env, VERICASE_SCREENING_WATCH_SECONDS: 'often' }),
      'VERICASE_SCREENING_WATCH_SECONDS=often',
      /^vericase serve: VERICASE_SCREENING_WATCH_SECONDS must be a non-negative number, got "often"/,
    );
    assertOneLineUsageError(
      await vericase(['serve'], { ...env, VERICASE_AUTH_FAILURES_PER_MINUTE: '1.5' }),
      'VERICASE_AUTH_FAILURES_PER_MINUTE=1.5',
      /^vericase serve: VERICASE_AUTH_FAILURES_PER_MINUTE must be a whole number, got "1\.5"\. See 'vericase --help'\.$/,
    );
    assertOneLineUsageError(
      await vericase(['serve'], { ...env, VERICASE_WEBHOOK_TIMEOUT_MS: 'abc' }),
      'VERICASE_WEBHOOK_TIMEOUT_MS=abc',
      /^vericase serve: VERICASE_WEBHOOK_TIMEOUT_MS must be a non-negative number, got "abc"\. See 'vericase --help'\.$/,
    );
    assertOneLineUsageError(
      await vericase(['migrate'], { ...env, DATABASE_URL: 'mysql://db/x' }),
      'DATABASE_URL=mysql://',
      /^vericase migrate: DATABASE_URL must start with postgres:\/\/ or postgresql:\/\//,
    );
    // a group without its subcommand shows the group's help on stderr
    const group = await vericase(['keys'], env);
    assert.equal(group.code, 2);
    assert.equal(group.stdout, '');
    assert.match(group.stderr, /^Usage: vericase keys \[options\] \[command\]/);
    assert.match(group.stderr, /\n {2}create \[options\]/);
    assert.equal(fs.existsSync(dataDir), false, 'no usage error opened the database');
  });

  test('data status without a pulled version: the reference directory in use, or exit 1 when it cannot be read', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-status-'));
    const missing = path.join(dataDir, 'no-such-lists');
    const bad = await vericase(['data', 'status'], {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      VERICASE_REFERENCE_DIR: missing,
    });
    assert.equal(bad.code, 1, bad.stderr);
    assert.equal(
      JSON.parse(bad.stdout).message,
      `No list can be read: VERICASE_REFERENCE_DIR (${missing}) does not exist, and no version was pulled`,
    );
    fs.mkdirSync(missing);
    const good = await vericase(['data', 'status'], {
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      VERICASE_REFERENCE_DIR: missing,
    });
    assert.equal(good.code, 0, good.stderr);
    assert.equal(
      JSON.parse(good.stdout).message,
      `No pulled version: the lists are read from VERICASE_REFERENCE_DIR (${missing})`,
    );
  });

  test('an unexpected failure is one line and exit 1; LOG_LEVEL=debug adds its stack trace', async () => {
    const env = { DATABASE_URL: `postgres://postgres@127.0.0.1:${await closedPort()}/nothing` };
    const quiet = await vericase(['workspaces', 'create', '--name', 'Acme'], env);
    assert.equal(quiet.code, 1);
    assert.equal(quiet.stdout, '');
    assert.equal(
      quiet.stderr,
      `vericase: connect ECONNREFUSED ${new URL(env.DATABASE_URL).host}\nNothing answers at that address: start PostgreSQL, check the host and port of DATABASE_URL, or leave DATABASE_URL unset to run on the embedded database.\n(LOG_LEVEL=debug prints the stack trace)\n`,
    );
    const verbose = await vericase(['workspaces', 'create', '--name', 'Acme'], {
      ...env,
      LOG_LEVEL: 'debug',
    });
    assert.equal(verbose.code, 1);
    assert.match(verbose.stderr, /Error: connect ECONNREFUSED/);
    assert.match(verbose.stderr, /\n\s+at /, 'the stack trace');
    // a server that answers, without the database named (the PostgreSQL pass of the suite has one)
    if (process.env.DATABASE_URL) {
      const url = new URL(process.env.DATABASE_URL);
      url.pathname = '/vericase_no_such_database';
      const missing = await vericase(['migrate'], { DATABASE_URL: url.toString() });
      assert.equal(missing.code, 1, missing.stderr);
      assert.match(
        missing.stderr,
        /\nvericase: database "vericase_no_such_database" does not exist\nCreate it \(createdb <name>, or CREATE DATABASE\) or point DATABASE_URL at a database that exists\.\n/,
      );
    }
    // serve on a port already taken: the same one line, after the database was opened and released
    const taken = net.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => taken.once('listening', r));
    const port = (taken.address() as net.AddressInfo).port;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-port-'));
    try {
      const busy = await vericase(['serve'], {
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
      });
      assert.equal(busy.code, 1, busy.stderr);
      assert.equal(
        busy.stderr,
        `vericase: listen EADDRINUSE: address already in use 127.0.0.1:${port}\nAnother process listens on that port (another vericase?): stop it, or start on a free port with PORT=${port + 1}.\n(LOG_LEVEL=debug prints the stack trace)\n`,
      );
      assert.equal(
        fs.existsSync(path.join(dataDir, 'vericase.lock')),
        false,
        'the DATA_DIR lock is released',
      );
      // a first start that could not serve shows no one-time secret and keeps no workspace: the
      // next start (on a free port) creates it and prints them (they were printed, then lost)
      assert.doesNotMatch(busy.stdout, /shown once/);
      const noWorkspace = await vericase(['keys', 'create', '--workspace', 'default'], {
        DATA_DIR: dataDir,
        DATABASE_URL: '',
      });
      assert.equal(noWorkspace.code, 1, noWorkspace.stderr);
      assert.match(noWorkspace.stderr, /^vericase keys create: no workspace with id or name default\n/);
    } finally {
      taken.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('exit codes 1, 3 and 4 of a command that ran: nothing found, DATA_DIR in use, DATA_DIR damaged', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-exit-'));
    try {
      const env = { DATA_DIR: dir, DATABASE_URL: '' };
      const missing = await vericase(
        ['keys', 'create', '--workspace', '00000000-0000-4000-8000-000000000000'],
        env,
      );
      assert.equal(missing.code, 1, missing.stderr);
      assert.equal(
        missing.stderr,
        'vericase keys create: no workspace with id or name 00000000-0000-4000-8000-000000000000\n',
      );
      const none = await vericase(['keys', 'revoke', '--id', '00000000-0000-4000-8000-000000000000'], env);
      assert.equal(none.code, 1);
      assert.equal(
        none.stderr,
        'vericase keys revoke: no active key matches (an unknown key, or one already revoked)\n',
      );
      // another live process (this test's) holds the directory's lock: refused before anything is opened
      fs.writeFileSync(path.join(dir, 'vericase.lock'), String(process.pid));
      const locked = await vericase(['migrate'], env);
      assert.equal(locked.code, 3, locked.stderr);
      assert.match(locked.stderr, new RegExp(`already in use by process ${process.pid}`));
      assert.doesNotMatch(locked.stderr, /\n\s+at /);
      fs.rmSync(path.join(dir, 'vericase.lock'));
      // files in pgdata that are not a database
      const damaged = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-damaged-'));
      fs.mkdirSync(path.join(damaged, 'pgdata'));
      fs.writeFileSync(path.join(damaged, 'pgdata', 'stray'), 'x');
      const refused = await vericase(['migrate'], { ...env, DATA_DIR: damaged });
      fs.rmSync(damaged, { recursive: true, force: true });
      assert.equal(refused.code, 4, refused.stderr);
      assert.match(refused.stderr, /is damaged: .* so it is not a valid database/);
      assert.doesNotMatch(refused.stderr, /\n\s+at /);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

// a suite of its own: the one above, on a loaded machine, takes most of its 180 s
describe('vericase serve: configuration values refused at start-up', () => {
  test('values that were accepted silently (or failed later, naming nothing) stop serve with one line naming the variable', async () => {
    const dataDir = path.join(os.tmpdir(), `vericase-refused-${process.pid}-absent`);
    const env = { DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(await closedPort()) };
    const see = "\\. See 'vericase --help'\\.$";
    const cases: [Record<string, string>, string][] = [
      // read only with a bucket, so a typo passed while none was named
      [
        { VERICASE_S3_FORCE_PATH_STYLE: 'maybe' },
        'VERICASE_S3_FORCE_PATH_STYLE must be true or false, got "maybe"',
      ],
      [
        { VERICASE_S3_BUCKET: 'b', VERICASE_S3_ENDPOINT: 'notaurl' },
        'VERICASE_S3_ENDPOINT must be an http\\(s\\) URL, got "notaurl"',
      ],
      // files would silently go to DATA_DIR/files
      [
        { VERICASE_S3_ENDPOINT: 'http://minio:9000' },
        'VERICASE_S3_ENDPOINT is set but VERICASE_S3_BUCKET is not: name the bucket, or unset VERICASE_S3_\\* to store files in DATA_DIR/files',
      ],
      [{ VERICASE_S3_TIMEOUT_MS: '0' }, 'VERICASE_S3_TIMEOUT_MS must be a positive integer, got "0"'],
      // ioredis took it, as a host, and each process counted on its own
      [
        { VERICASE_REDIS_URL: 'http://x' },
        'VERICASE_REDIS_URL must be a redis:// or rediss:// URL, got "http://x"',
      ],
      // raised to 500 without a word
      [{ VERICASE_JOB_POLL_MS: '100' }, 'VERICASE_JOB_POLL_MS must be at least 500, got "100"'],
      [
        { VERICASE_BOOTSTRAP_ADMIN_EMAIL: 'notanemail' },
        'VERICASE_BOOTSTRAP_ADMIN_EMAIL must be an e-mail address, got "notanemail"',
      ],
      [
        { VERICASE_MAIL_FROM: 'not an address' },
        'VERICASE_MAIL_FROM must be an e-mail address or Name <address>, got "not an address"',
      ],
      // every company re-read on every pass (one a minute)
      [
        { VERICASE_COMPANY_MONITORING_INTERVAL_SECONDS: '0' },
        'VERICASE_COMPANY_MONITORING_INTERVAL_SECONDS must be at least 60, got "0"',
      ],
      // failed after migrating with "getaddrinfo ENOTFOUND not a host" (exit 1)
      [{ HOST: 'not a host' }, 'HOST must be an IP address or a host name, got "not a host"'],
      [
        { HOST: 'nosuchhost.invalid' },
        'HOST "nosuchhost\\.invalid" is not an address of this machine \\(E[A-Z_]+\\): use 0\\.0\\.0\\.0 for every interface, 127\\.0\\.0\\.1 for this machine only',
      ],
      // found by the signing module once the database was open, and reported as unexpected (exit 1)
      [
        { VERICASE_SIGNING_P12: '/nonexistent/signing.p12' },
        'VERICASE_SIGNING_P12 must be a readable PKCS#12 file, got "/nonexistent/signing\\.p12" \\(ENOENT\\)',
      ],
    ];
    await eachPair(cases, async ([vars, message]) => {
      const label = Object.entries(vars)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      assertOneLineUsageError(
        await vericase(['serve'], { ...env, ...vars }),
        label,
        new RegExp(`^vericase serve: ${message}${see}`),
      );
    });
    // read by bin/vericase.js, before the program: anything but a switch was taken for "on"
    assertOneLineUsageError(
      await vericase(['serve'], { ...env, VERICASE_BUNDLE: 'x' }),
      'VERICASE_BUNDLE=x',
      /^vericase: VERICASE_BUNDLE must be true or false, got "x"\. See 'vericase --help'\.$/,
    );
    assert.equal(fs.existsSync(dataDir), false, 'nothing was opened');
  });
});
