/**
 * Start-up time and idle memory of `vericase serve`, as a new user meets them with `npm start`.
 *
 * For each database (a fresh PGlite directory, an existing one; PostgreSQL when given) it starts
 * `node bin/vericase.js serve` in its own process three times and reports the median of:
 * - first request: from spawn to the first 200 of `GET /v1/ping` with the bootstrap key;
 * - ready: from spawn to the first 200 of `/readyz` (sanctions lists loaded when
 *   VERICASE_REFERENCE_DIR points at ../shared/data, workers running);
 * - RSS just after ready: the process's resident memory (VmRSS) 5 s after it became ready;
 * - idle RSS, the figure judged: the same once the process is at rest. A service that goes idle is
 *   not at rest 5 s after ready: V8's memory reducer (on by default) runs two memory-reducing
 *   collections once the allocation rate has stayed low for about 8 s, and gives back what start-up
 *   grew into (about 30 MB: the young generation, start-up's garbage). That came 10 to 36 s after
 *   ready in single starts on a 2-core machine, so no fixed delay fits: the service runs with
 *   `--trace-gc`, the bench watches its output for the reducer's "Mark-Compact (reduce)" and reads
 *   VmRSS 5 s after the first one (at most BENCH_STARTUP_SETTLE_MAX, 90 s, after ready: a start
 *   whose reducer has not run by then is measured then, and the table says how many).
 *
 * Run directly: `node bench/startup.ts [postgres-url]`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { NODE_FLAGS } from '../bin/node-flags.js';
import { type DbLabel, recordFigure } from './goals.ts';
import { assertSameBuild, ensureServerBundle, freePort, ROOT } from './lib.ts';

const KEY = 'vk_bench_startup_key_0123456789';
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3);
const IDLE_SECONDS = Number(process.env.BENCH_STARTUP_IDLE ?? 5);
const SETTLE_MAX_SECONDS = Number(process.env.BENCH_STARTUP_SETTLE_MAX ?? 90);
/** After the reducer's first collection: its second follows within a second. */
const AFTER_REDUCE_SECONDS = 5;

interface StartFigures {
  firstRequestMs: number;
  readyMs: number;
  /** IDLE_SECONDS after ready */
  earlyRssMb: number;
  /** idle, after V8's memory reducer has run (or SETTLE_MAX_SECONDS after ready) */
  rssMb: number;
  /** from ready to the reducer's first collection; null when it did not run */
  reducedAfterMs: number | null;
}

/** The first "Mark-Compact (reduce)" that `--trace-gc` prints for the process `pid`. */
function watchReducer(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    let pending = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      // a trace line starts with [pid:isolate]; the list loader's child has another pid
      if (lines.some((l) => l.startsWith(`[${child.pid}:`) && l.includes('Mark-Compact (reduce)')))
        resolve(performance.now());
    });
  });
}

function referenceDir(): string | undefined {
  const dir = path.resolve(ROOT, '..', 'shared', 'data');
  return fs.existsSync(dir) ? dir : undefined;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return kb / 1024;
}

async function until(
  child: ChildProcess,
  started: number,
  url: string,
  headers: Record<string, string>,
): Promise<number> {
  const deadline = started + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    try {
      const res = await fetch(url, { headers });
      await res.arrayBuffer();
      if (res.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`${url} did not answer 200 within 120 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function startOnce(env: NodeJS.ProcessEnv): Promise<StartFigures> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  assertSameBuild();
  const started = performance.now();
  const child = spawn(process.execPath, [...NODE_FLAGS, '--trace-gc', 'bin/vericase.js', 'serve'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      VERICASE_BOOTSTRAP_API_KEY: KEY,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const reduced = watchReducer(child);
  try {
    const firstRequestMs = await until(child, started, `${base}/v1/ping`, { 'x-service-api-key': KEY });
    const readyMs = await until(child, started, `${base}/readyz`, {});
    const readyAt = started + readyMs;
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const earlyRssMb = rssMb(child.pid as number);
    let capTimer: NodeJS.Timeout | undefined;
    const cap = new Promise<null>((r) => {
      capTimer = setTimeout(r, readyAt + SETTLE_MAX_SECONDS * 1000 - performance.now(), null);
    });
    // already resolved when the reducer ran before this point
    const reducedAt = await Promise.race([reduced, cap]);
    clearTimeout(capTimer);
    if (reducedAt !== null) await new Promise((r) => setTimeout(r, AFTER_REDUCE_SECONDS * 1000));
    const reducedAfterMs = reducedAt === null ? null : Math.max(0, reducedAt - readyAt);
    return { firstRequestMs, readyMs, earlyRssMb, rssMb: rssMb(child.pid as number), reducedAfterMs };
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Row {
  label: string;
  runs: StartFigures[];
}

function summary(rows: Row[]): void {
  console.log(`\nStart-up of \`vericase serve\` (median of ${RUNS} starts; min-max in brackets)\n`);
  console.log(
    `| database | start → first answered request | start → /readyz 200 | RSS ${IDLE_SECONDS} s after ready | idle RSS (after V8's memory reducer) | reducer's first collection, after ready |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const { label, runs } of rows) {
    const cell = (xs: number[], unit: string, digits: number) =>
      `${median(xs).toFixed(digits)} ${unit} [${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}]`;
    const reduced = runs.flatMap((f) => (f.reducedAfterMs === null ? [] : [f.reducedAfterMs / 1000]));
    const missed = runs.length - reduced.length;
    const reducer = [
      reduced.length ? cell(reduced, 's', 0) : '',
      missed ? `did not run within ${SETTLE_MAX_SECONDS} s in ${missed} of ${runs.length}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    const col = (pick: (f: StartFigures) => number, unit: string, digits: number) =>
      cell(runs.map(pick), unit, digits);
    const cells = [
      label,
      col((f) => f.firstRequestMs / 1000, 's', 2),
      col((f) => f.readyMs / 1000, 's', 2),
      col((f) => f.earlyRssMb, 'MB', 0),
      col((f) => f.rssMb, 'MB', 0),
      reducer,
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
}

function record(db: DbLabel, runs: StartFigures[]): void {
  const first = runs.map((f) => f.firstRequestMs / 1000);
  const rss = runs.map((f) => f.rssMb);
  recordFigure('start-first-request', db, median(first), [Math.min(...first), Math.max(...first)]);
  recordFigure('idle-rss', db, median(rss), [Math.min(...rss), Math.max(...rss)]);
}

export async function runStartupBench(databaseUrl: string | null): Promise<void> {
  ensureServerBundle();
  const ref = referenceDir();
  // the goals are judged with the sanctions lists configured (a real deployment); a row without
  // them shows what a first `npm start` (no list pulled yet) costs
  const withLists = { VERICASE_REFERENCE_DIR: ref ?? '' };
  const noLists = { VERICASE_REFERENCE_DIR: '' };
  const listsLabel = ref ? 'with the sanctions lists' : 'no sanctions lists found';
  const rows: Row[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-bench-start-'));
  try {
    if (!databaseUrl) {
      const fresh: StartFigures[] = [];
      const existing: StartFigures[] = [];
      const bare: StartFigures[] = [];
      for (let i = 0; i < RUNS; i++) {
        const runDir = fs.mkdtempSync(path.join(dir, 'run-'));
        const env = { DATABASE_URL: '', DATA_DIR: runDir };
        // an empty data directory: the database is created and migrated
        fresh.push(await startOnce({ ...withLists, ...env }));
        // the same directory again: what every later `npm start` pays
        existing.push(await startOnce({ ...withLists, ...env }));
        bare.push(await startOnce({ ...noLists, ...env }));
      }
      rows.push({ label: `PGlite, empty data directory, ${listsLabel}`, runs: fresh });
      rows.push({ label: `PGlite, existing data directory, ${listsLabel}`, runs: existing });
      rows.push({ label: 'PGlite, existing data directory, no sanctions lists', runs: bare });
      record('PGlite', existing);
    } else {
      const env = { DATABASE_URL: databaseUrl, DATA_DIR: dir };
      // the first start migrates the database; the figures are those of the starts after it
      await startOnce({ ...withLists, ...env });
      const migrated: StartFigures[] = [];
      const bare: StartFigures[] = [];
      for (let i = 0; i < RUNS; i++) {
        migrated.push(await startOnce({ ...withLists, ...env }));
        bare.push(await startOnce({ ...noLists, ...env }));
      }
      rows.push({ label: `PostgreSQL, migrated database, ${listsLabel}`, runs: migrated });
      rows.push({ label: 'PostgreSQL, migrated database, no sanctions lists', runs: bare });
      record('PostgreSQL', migrated);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  summary(rows);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runStartupBench(process.argv[2] ?? null);
}
