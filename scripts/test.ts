/**
 * `npm test`: the whole suite twice, on the embedded database (PGlite) and on PostgreSQL.
 * PostgreSQL comes from TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); it is
 * reset before the run. When it is unreachable the PostgreSQL run is skipped with a warning, except
 * under CI=true, where that is a failure.
 *
 * The two runs go at the same time, each in one process with its own database (a data directory
 * for PGlite, TEST_DATABASE_URL's database for PostgreSQL): a test process spends part of its time
 * waiting (child servers starting, Chromium painting, timers), and the runs one after the other took
 * about 80 minutes on a slow 2-core machine, over CI's limit, where together they take about 56
 * (four processes, each run split in two, were not ahead of two: the cores were saturated).
 * The PGlite run prints as it goes; the PostgreSQL run's output is held in a file and printed when
 * both have ended, so that neither TAP stream is cut into the other. TEST_SERIAL=1 runs them one
 * after the other.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { NODE_FLAGS } from '../bin/node-flags.js';

const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const only = process.env.TEST_DB; // 'pglite' | 'postgres' to run one of them
const files = process.argv.slice(2);
const patterns = files.length ? files : ['test/*.test.ts', 'test/**/*.test.ts'];

async function resetPostgres(): Promise<boolean> {
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (err) {
    console.warn(`PostgreSQL at ${pgUrl} is unreachable: ${(err as Error).message}`);
    return false;
  }
  try {
    const { rows } = await client.query<{ nspname: string }>(
      `select nspname from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema'`,
    );
    for (const { nspname } of rows) await client.query(`drop schema "${nspname}" cascade`);
    await client.query('create schema public');
    return true;
  } finally {
    await client.end();
  }
}

interface Pass {
  label: string;
  env: NodeJS.ProcessEnv;
  /** where its output waits while the other pass prints (undefined: printed as it comes) */
  buffer?: string;
}

/** Runs one pass of the suite; resolves with its exit code. */
function run(pass: Pass): Promise<number> {
  const out = pass.buffer ? fs.openSync(pass.buffer, 'w') : 'inherit';
  if (!pass.buffer) console.log(`\n=== test suite on ${pass.label} ===\n`);
  const args = [
    // the suite runs with the service's own Node options (bin/node-flags.js)
    ...NODE_FLAGS,
    '--test',
    '--experimental-test-isolation=none',
    '--test-timeout=180000',
    '--test-force-exit',
    '--no-warnings=ExperimentalWarning',
    ...patterns,
  ];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', out, out],
    env: { ...process.env, ...pass.env },
  });
  return new Promise((resolve) => {
    child.on('error', (err) => {
      console.error(`${pass.label}: ${err.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      if (typeof out === 'number') fs.closeSync(out);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

function printBuffered(pass: Pass): void {
  if (!pass.buffer) return;
  console.log(`\n=== test suite on ${pass.label} ===\n`);
  // in pieces: a pass's output is megabytes
  const fd = fs.openSync(pass.buffer, 'r');
  const chunk = Buffer.alloc(1 << 20);
  for (let n = fs.readSync(fd, chunk); n > 0; n = fs.readSync(fd, chunk))
    process.stdout.write(chunk.subarray(0, n));
  fs.closeSync(fd);
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-test-'));
const passes: Pass[] = [];
let failed = 0;
if (only !== 'postgres') {
  const dir = path.join(work, 'pglite');
  fs.mkdirSync(dir);
  passes.push({ label: 'PGlite (embedded)', env: { DATABASE_URL: '', DATA_DIR: dir } });
}
if (only !== 'pglite') {
  if (await resetPostgres()) {
    passes.push({ label: `PostgreSQL (${pgUrl})`, env: { DATABASE_URL: pgUrl } });
  } else if (process.env.CI === 'true') {
    console.error('CI requires the PostgreSQL run.');
    failed += 1;
  } else {
    console.warn('Skipping the PostgreSQL run (set TEST_DATABASE_URL to a reachable server).');
  }
}

if (process.env.TEST_SERIAL === '1' || passes.length < 2) {
  for (const pass of passes) failed += (await run(pass)) ? 1 : 0;
} else {
  const [first, second] = passes as [Pass, Pass];
  second.buffer = path.join(work, 'second-pass.tap');
  console.log(`${second.label} runs at the same time; its output follows when both have ended`);
  const codes = await Promise.all([run(first), run(second)]);
  printBuffered(second);
  passes.forEach((pass, i) => {
    if (codes[i] !== 0) console.log(`\nfailed: ${pass.label}`);
  });
  failed += codes.filter((code) => code !== 0).length;
}
fs.rmSync(work, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
