/**
 * `npm test`: the whole suite twice, on the embedded database (PGlite) and on PostgreSQL.
 * PostgreSQL comes from TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); it is
 * reset before the run. When it is unreachable the PostgreSQL run is skipped with a warning, except
 * under CI=true, where that is a failure.
 *
 * The two runs go at the same time, each in one process with its own database (a data directory
 * for PGlite, TEST_DATABASE_URL's database for PostgreSQL): a test process spends part of its time
 * waiting (child servers starting, Chromium painting, timers), and the runs one after the other took
 * about 80 minutes on a slow 2-core machine, over CI's limit, where together they take about 56.
 * TEST_SHARDS=N splits each run into N processes, each with a database of its own (`<db>_shard2`...
 * on PostgreSQL, made when missing), files shared out by their measured durations
 * (scripts/test-weights.json, refreshed with TEST_RECORD_WEIGHTS=1): for a machine with more
 * cores; on 2 cores four processes were not ahead of two after 20 minutes (the cores were saturated).
 * The first process prints as it goes; the others' output is held in files and printed after it,
 * so that no TAP stream is cut into another. TEST_SERIAL=1 runs the processes one after the other.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { NODE_FLAGS } from '../bin/node-flags.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const WEIGHTS = path.join(ROOT, 'scripts', 'test-weights.json');
const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const only = process.env.TEST_DB; // 'pglite' | 'postgres' to run one of them
const shardCount = Math.max(1, Number.parseInt(process.env.TEST_SHARDS ?? '1', 10) || 1);
const recordWeights = process.env.TEST_RECORD_WEIGHTS === '1';

/** The files to run: the arguments (files or globs), else every test file. */
function testFiles(): string[] {
  const patterns = process.argv.slice(2);
  const globs = patterns.length ? patterns : ['test/*.test.ts', 'test/**/*.test.ts'];
  const files = new Set<string>();
  for (const pattern of globs) {
    const found = fs.globSync(pattern, { cwd: ROOT });
    // a path that is not a glob is passed on as it is (node --test says if it does not exist)
    for (const f of found.length ? found : [pattern]) files.add(f.split(path.sep).join('/'));
  }
  return [...files].sort();
}

/** Files split into `n` groups of about equal measured duration (unmeasured files: the median). */
function shard(files: string[], n: number): string[][] {
  const weights: Record<string, number> = fs.existsSync(WEIGHTS)
    ? JSON.parse(fs.readFileSync(WEIGHTS, 'utf8'))
    : {};
  const known = Object.values(weights).sort((a, b) => a - b);
  const fallback = known.length ? (known[Math.floor(known.length / 2)] as number) : 1;
  const groups = Array.from({ length: Math.min(n, files.length) || 1 }, () => ({
    files: [] as string[],
    total: 0,
  }));
  const byWeight = [...files].sort(
    (a, b) => (weights[b] ?? fallback) - (weights[a] ?? fallback) || a.localeCompare(b),
  );
  for (const file of byWeight) {
    const lightest = groups.reduce((min, g) => (g.total < min.total ? g : min));
    lightest.files.push(file);
    lightest.total += weights[file] ?? fallback;
  }
  // in each group, the files in name order (as `node --test` with one glob would run them)
  return groups.map((g) => g.files.sort());
}

function databaseUrl(base: string, n: number): string {
  if (n === 1) return base;
  const url = new URL(base);
  url.pathname = `/${url.pathname.slice(1) || 'test'}_shard${n}`;
  return url.toString();
}

async function resetPostgres(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (err) {
    const missing = (err as { code?: string }).code === '3D000';
    if (missing && url !== pgUrl) {
      // a shard's database next to TEST_DATABASE_URL's, made on first use
      const admin = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
      await admin.connect();
      try {
        await admin.query(`create database "${new URL(url).pathname.slice(1)}"`);
      } finally {
        await admin.end();
      }
      return resetPostgres(url);
    }
    console.warn(`PostgreSQL at ${url} is unreachable: ${(err as Error).message}`);
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

interface Shard {
  label: string;
  env: NodeJS.ProcessEnv;
  files: string[];
  /** where its output waits while another shard prints (undefined: printed as it comes) */
  buffer?: string;
  /** where the weights reporter writes (TEST_RECORD_WEIGHTS=1) */
  weights?: string;
}

/** Runs one shard; resolves with its exit code. */
function run(s: Shard): Promise<number> {
  const out = s.buffer ? fs.openSync(s.buffer, 'w') : 'inherit';
  if (!s.buffer) console.log(`\n=== test suite on ${s.label} ===\n`);
  const reporters = s.weights
    ? [
        '--test-reporter=tap',
        '--test-reporter-destination=stdout',
        `--test-reporter=${path.join(ROOT, 'scripts', 'test-weights-reporter.ts')}`,
        `--test-reporter-destination=${s.weights}`,
      ]
    : [];
  const args = [
    // the suite runs with the service's own Node options (bin/node-flags.js)
    ...NODE_FLAGS,
    '--test',
    '--experimental-test-isolation=none',
    '--test-timeout=180000',
    '--test-force-exit',
    '--no-warnings=ExperimentalWarning',
    ...reporters,
    ...s.files,
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...s.env },
  });
  return new Promise((resolve) => {
    child.on('error', (err) => {
      console.error(`${s.label}: ${err.message}`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      if (typeof out === 'number') fs.closeSync(out);
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

function printBuffered(s: Shard): void {
  if (!s.buffer) return;
  console.log(`\n=== test suite on ${s.label} ===\n`);
  // in pieces: a shard's output is megabytes
  const fd = fs.openSync(s.buffer, 'r');
  const chunk = Buffer.alloc(1 << 20);
  for (let n = fs.readSync(fd, chunk); n > 0; n = fs.readSync(fd, chunk))
    process.stdout.write(chunk.subarray(0, n));
  fs.closeSync(fd);
}

const files = testFiles();
const groups = shard(files, shardCount);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-test-'));
const shards: Shard[] = [];
let failed = 0;
const part = (i: number) =>
  groups.length > 1 ? `, shard ${i + 1}/${groups.length}: ${groups[i]?.length} files` : '';
if (only !== 'postgres') {
  groups.forEach((group, i) => {
    const dir = path.join(work, `pglite-${i + 1}`);
    fs.mkdirSync(dir);
    shards.push({
      label: `PGlite (embedded)${part(i)}`,
      env: { DATABASE_URL: '', DATA_DIR: dir },
      files: group,
    });
  });
}
if (only !== 'pglite') {
  const urls = groups.map((_, i) => databaseUrl(pgUrl, i + 1));
  const ready = [];
  for (const url of urls) ready.push(await resetPostgres(url));
  if (ready.every(Boolean)) {
    groups.forEach((group, i) => {
      shards.push({
        label: `PostgreSQL (${urls[i]})${part(i)}`,
        env: { DATABASE_URL: urls[i] },
        files: group,
      });
    });
  } else if (process.env.CI === 'true') {
    console.error('CI requires the PostgreSQL run.');
    failed += 1;
  } else {
    console.warn('Skipping the PostgreSQL run (set TEST_DATABASE_URL to a reachable server).');
  }
}
if (recordWeights) {
  shards.forEach((s, i) => {
    s.weights = path.join(work, `weights-${i + 1}.json`);
  });
}

if (process.env.TEST_SERIAL === '1') {
  for (const s of shards) failed += (await run(s)) ? 1 : 0;
} else {
  shards.forEach((s, i) => {
    if (i > 0) s.buffer = path.join(work, `shard-${i + 1}.tap`);
  });
  if (shards.length > 1) {
    console.log(
      `${shards.length} test processes at the same time; the first prints as it goes, the others when it ends`,
    );
  }
  const codes = await Promise.all(shards.map(run));
  for (const s of shards) printBuffered(s);
  shards.forEach((s, i) => {
    if (codes[i] !== 0) console.log(`\nfailed: ${s.label}`);
  });
  failed += codes.filter((code) => code !== 0).length;
}
if (recordWeights) {
  // the longer of the two runs' times, per file, over the weights on record
  const weights: Record<string, number> = fs.existsSync(WEIGHTS)
    ? JSON.parse(fs.readFileSync(WEIGHTS, 'utf8'))
    : {};
  const seen: Record<string, number> = {};
  for (const s of shards) {
    if (!s.weights || !fs.existsSync(s.weights)) continue;
    for (const [file, seconds] of Object.entries(
      JSON.parse(fs.readFileSync(s.weights, 'utf8')) as Record<string, number>,
    )) {
      seen[file] = Math.max(seen[file] ?? 0, seconds);
    }
  }
  Object.assign(weights, seen);
  const sorted = Object.fromEntries(Object.entries(weights).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(WEIGHTS, `${JSON.stringify(sorted, null, 1)}\n`);
  console.log(`test weights of ${Object.keys(seen).length} files written to ${path.relative(ROOT, WEIGHTS)}`);
}
fs.rmSync(work, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
