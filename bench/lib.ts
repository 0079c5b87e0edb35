import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { NODE_FLAGS } from '../bin/node-flags.js';
import { freshBundle } from '../bin/server-bundle.js';
import { type Config, loadConfig } from '../src/config.ts';

export const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * The configuration of an in-process bench service: a fresh embedded database in a temporary
 * DATA_DIR (returned, for the caller to remove), the reference data beside the repository, no rate
 * limit, no workers; `overrides` on top.
 */
export async function benchConfig(label: string, overrides: Partial<Config> = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `vericase-bench-${label}-`));
  const referenceDir = process.env.VERICASE_REFERENCE_DIR ?? path.resolve(ROOT, '..', 'shared', 'data');
  const config: Config = {
    ...loadConfig({ ...process.env, DATA_DIR: dataDir, VERICASE_REFERENCE_DIR: referenceDir }),
    rateLimitPerMinute: 0,
    runWorkers: false,
    ...overrides,
  };
  return { config, dataDir };
}

/**
 * The list benches' cases: `count` cases in one workspace, a fifth in each status, every third
 * tagged `vip`, one second apart (so every sort has distinct keys). One statement ($1 the workspace,
 * $2 the count); run `vacuum analyze cases` after it, as autovacuum would, for index-only counts.
 */
export const SEED_LIST_CASES_SQL = `
  insert into cases (id, workspace_id, name, status, tags, created_at, updated_at, last_activity_at)
  select gen_random_uuid(), $1::uuid, 'Case ' || lpad(g::text, 6, '0'),
    (array['open','draft','approved','rejected','closed'])[1 + g % 5],
    case when g % 3 = 0 then array['vip'] else array[]::text[] end,
    now() - make_interval(secs => g), now() - make_interval(secs => g), now() - make_interval(secs => g)
  from generate_series(1, $2::int) g`;

export interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/** The bundle's entry built or found at the bench's start (null: the sources are run, VERICASE_BUNDLE=0). */
let benchBundle: string | null | undefined;

/**
 * Brings the server's bundle up to date with the sources, as `npm start` does before it starts
 * (scripts/build-server.ts; nothing to do when it matches): the benchmarks start
 * `node bin/vericase.js serve` directly and must run what a user's `npm start` runs.
 */
export function ensureServerBundle(): void {
  if (benchBundle !== undefined) return;
  const built = spawnSync(process.execPath, ['scripts/build-server.ts'], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error(`scripts/build-server.ts failed with status ${built.status}`);
  benchBundle = freshBundle();
}

/**
 * Refuses to start a service whose build is not the one the bench started with. `bin/vericase.js`
 * runs the TypeScript sources when they no longer match the bundle, so an edit under src/ during a
 * run made its later processes start from the sources: slower to start and larger (session 26: a run
 * measured 2.27 s and 168 MB against 1.14 s and 127 MB), and the figures mixed two builds.
 */
export function assertSameBuild(): void {
  ensureServerBundle();
  if (freshBundle() !== benchBundle) {
    throw new Error(
      'src/ (or package-lock.json) changed since the benchmark started: its next service would run another build. Run it again without editing.',
    );
  }
}

export async function freePort(): Promise<number> {
  const srv = net.createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const port = (srv.address() as net.AddressInfo).port;
  srv.close();
  return port;
}

/** Starts a child process and waits until `url` answers. */
export async function startProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  url: string,
  cwd = ROOT,
): Promise<ChildProcess> {
  if (args.includes('bin/vericase.js')) assertSameBuild();
  // every process with the service's Node options (bin/node-flags.js), the bare one too: same runtime
  const child = spawn(process.execPath, [...NODE_FLAGS, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return child;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not come up`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs `fn` with the given server processes (every thread) on CPU 0 and this process, the load
 * generator, on CPU 1, then lets them all run anywhere again. On a 2-core machine, unpinned, the
 * scheduler lets the load generator and the server take turns on the same core, and the service
 * (more threads at work: V8's garbage collection helpers) lost more to it than the bare route: the
 * ratio moved between 66% and 93% from run to run. Pinned, each side has a core of its own, which is
 * what the ratio means to compare (docs/performance.md, "Measuring"). Needs Linux's `taskset` and
 * two CPUs; otherwise, or with BENCH_PIN=0, `fn` runs unpinned. Returns whether it pinned.
 */
export async function withPinnedCpus<T>(
  servers: ChildProcess[],
  fn: () => Promise<T>,
): Promise<{ result: T; pinned: boolean }> {
  const cpus = os.availableParallelism();
  const pin = (pid: number, list: string) =>
    spawnSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' }).status === 0;
  const pids = servers.map((s) => s.pid).filter((pid): pid is number => pid !== undefined);
  const pinned =
    process.env.BENCH_PIN !== '0' &&
    cpus >= 2 &&
    pids.length === servers.length &&
    pids.every((pid) => pin(pid, '0')) &&
    pin(process.pid, '1');
  try {
    return { result: await fn(), pinned };
  } finally {
    const all = `0-${cpus - 1}`;
    for (const pid of [...pids, process.pid]) pin(pid, all);
  }
}

/**
 * `vericase serve` from this checkout on a free port of 127.0.0.1, once `/healthz` answers: the
 * child and its base URL. `env` adds to the bench's environment (PORT and HOST are set here).
 */
export async function startService(
  env: NodeJS.ProcessEnv,
  opts: { ready?: boolean } = {},
): Promise<{ base: string; server: ChildProcess }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startProcess(
    ['bin/vericase.js', 'serve'],
    { ...env, PORT: String(port), HOST: '127.0.0.1' },
    `${base}/healthz`,
  );
  if (opts.ready) await untilReady(`${base}/readyz`, server);
  return { base, server };
}

/** Until `/readyz` answers 200: the background start (sanctions lists, job queue) is over. */
async function untilReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    const res = await fetch(url).catch(() => null);
    if (res?.status === 200) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

export async function load(
  name: string,
  opts: {
    url: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    duration?: number;
    /** Seconds of unmeasured load first (JIT, pools, caches); default 2, 0 for none. */
    warmup?: number;
  },
): Promise<Figures> {
  const warmup = opts.warmup ?? 2;
  if (warmup > 0) {
    await autocannon({
      url: opts.url,
      method: (opts.method ?? 'GET') as 'GET',
      headers: opts.headers,
      body: opts.body,
      connections: opts.connections ?? 20,
      duration: warmup,
    });
  }
  const result = await autocannon({
    url: opts.url,
    method: (opts.method ?? 'GET') as 'GET',
    headers: opts.headers,
    body: opts.body,
    connections: opts.connections ?? 20,
    duration: opts.duration ?? Number(process.env.BENCH_DURATION ?? 8),
  });
  return {
    name,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export function printTable(title: string, rows: Figures[]): void {
  console.log(`\n## ${title}\n`);
  console.log('| measurement | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.name} | ${Math.round(r.rps)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.errors} |`,
    );
  }
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** One side of a comparison: how to take one measured run of it. */
export interface Target {
  name: string;
  /** One measured run of `seconds`; `first` is true on the target's first round (warm it up). */
  run: (seconds: number, first: boolean) => Promise<Figures>;
}

/** A target's runs across rounds, summarised by their median and spread. */
export interface Series {
  name: string;
  runs: Figures[];
  rps: Spread;
  p50: number;
  p99: Spread;
  errors: number;
}

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: number[]): Spread {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  const median = v.length % 2 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
  return { median, min: v[0], max: v[v.length - 1] };
}

/** Rounds: BENCH_ROUNDS (default 5) runs of each target, BENCH_ROUND_SECONDS (default 3) each. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
export const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP ?? 10);

/**
 * Runs the targets in alternation, round after round (A B A B ...), so that a drift of the machine
 * during the run falls on every side of a ratio alike, and summarises each by its median run.
 */
export async function alternate(
  targets: Target[],
  rounds = ROUNDS,
  seconds = ROUND_SECONDS,
): Promise<Series[]> {
  const runs = targets.map(() => [] as Figures[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, t] of targets.entries()) runs[i].push(await t.run(seconds, r === 0));
  }
  return targets.map((t, i) => summarise(t.name, runs[i]));
}

export function summarise(name: string, runs: Figures[]): Series {
  return {
    name,
    runs,
    rps: spread(runs.map((f) => f.rps)),
    p50: spread(runs.map((f) => f.p50)).median,
    p99: spread(runs.map((f) => f.p99)),
    errors: runs.reduce((n, f) => n + f.errors, 0),
  };
}

/** A target loading one URL with autocannon. */
export function httpTarget(name: string, opts: Parameters<typeof load>[1]): Target {
  // the first round warms up for BENCH_WARMUP seconds (default 10): the service's throughput kept
  // rising for about 15 s of load (JIT tiers over much more code than the bare route), so with 2 s
  // the first rounds measured a cold process (ping at 60% of the ceiling, then 78%, 88%)
  return {
    name,
    run: (seconds, first) => load(name, { ...opts, duration: seconds, warmup: first ? WARMUP_SECONDS : 0 }),
  };
}

/** Ratio of two medians, with the spread of the per-round ratios (rounds paired in order). */
export function ratio(num: Series, den: Series): Spread {
  const per = num.runs.map((f, i) => f.rps / (den.runs[i]?.rps ?? Number.NaN));
  return { ...spread(per), median: num.rps.median / den.rps.median };
}

export function printSeries(title: string, series: Series[]): void {
  console.log(`\n## ${title}\n`);
  console.log(
    '| measurement | req/s median | req/s min-max | p50 ms | p99 ms median | p99 min-max | errors |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  for (const s of series) {
    console.log(
      `| ${s.name} | ${n(s.rps.median)} | ${n(s.rps.min)}-${n(s.rps.max)} | ${s.p50.toFixed(1)} | ${s.p99.median.toFixed(1)} | ${s.p99.min.toFixed(1)}-${s.p99.max.toFixed(1)} | ${s.errors} |`,
    );
  }
}
