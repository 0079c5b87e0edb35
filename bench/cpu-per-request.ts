/**
 * A/B of two `vericase serve` processes by the CPU time they spend per request: two checkouts, or
 * one checkout under two configurations, side by side on PostgreSQL (a scratch database each).
 *
 * Requests per second on a shared 2-core machine moved ±25% between rounds; the CPU time of the
 * server process (utime + stime from /proc, for a fixed number of requests) moves about ±10%,
 * which is what found that a forced full collection after start-up made every request 17-30%
 * dearer (docs/performance.md, session 10). Not part of `npm run bench`: it answers "did this change
 * make requests dearer?", run by hand:
 *
 *   CPU_AB_B_DIR=/path/to/other/checkout node bench/cpu-per-request.ts
 *   CPU_AB_A_ENV="VERICASE_SETTLE_MEMORY=true" node bench/cpu-per-request.ts
 *
 *   CPU_AB_B_DIR=/path/to/other/checkout CPU_AB_METHOD=POST CPU_AB_PATH=/v1/cases \
 *     CPU_AB_AMOUNT=4000 CPU_AB_CONNECTIONS=10 node bench/cpu-per-request.ts
 *
 * CPU_AB_A_DIR / CPU_AB_B_DIR (default: this checkout; each needs its node_modules and bundle),
 * CPU_AB_A_ENV / CPU_AB_B_ENV ("NAME=value NAME=value"), CPU_AB_A_FLAGS / CPU_AB_B_FLAGS (Node
 * options), CPU_AB_PATH (default /v1/ping, with the key), CPU_AB_METHOD (GET; POST sends the sample
 * case graph of the foundation bench), CPU_AB_AMOUNT requests per round (100,000),
 * CPU_AB_CONNECTIONS (20), CPU_AB_ROUNDS (6), CPU_AB_IDLE_FIRST (seconds of quiet before the warm-up, 0),
 * CPU_AB_SEED_CASES (cases seeded in each side's workspace as the foundation bench seeds its list
 * workspace, for a list path: CPU_AB_PATH='/v1/cases?status=open&tags=vip&sort=name.desc'),
 * BENCH_DATABASE_URL (the server the scratch databases
 * go on). Besides the server process's CPU it reports PostgreSQL's: the CPU time of every process
 * named postgres on this machine during the side's rounds (the other side is idle meanwhile, but for
 * its workers' polling), which is what a change of statements moves.
 *
 * Run it both ways round (swap A and B) before believing a few percent: in session 31 two
 * checkouts gave A/B 103, 105, 107 and 95% one way and 104, 105, 117 and 96% the other (GET
 * /v1/ping), so one direction alone "found" a 4% gain that the other reversed, while one checkout
 * against itself gave 97, 94, 100 and 103%.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { sampleCaseBody } from '../test/helpers/harness.ts';
import { scratchDatabase } from '../test/helpers/scratch-database.ts';
import { freePort, ROOT, SEED_LIST_CASES_SQL, spread, startProcess, stopProcess } from './lib.ts';

const KEY = 'vk_bench_cpu_per_request_0123456789';
const URL_PATH = process.env.CPU_AB_PATH ?? '/v1/ping';
const METHOD = process.env.CPU_AB_METHOD === 'POST' ? 'POST' : 'GET';
const CONNECTIONS = Number(process.env.CPU_AB_CONNECTIONS ?? 20);
const AMOUNT = Number(process.env.CPU_AB_AMOUNT ?? 100_000);
const ROUNDS = Number(process.env.CPU_AB_ROUNDS ?? 6);
const SERVER = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';
/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const USER_HZ = 100;

interface Side {
  name: 'A' | 'B';
  child: ChildProcess;
  port: number;
  drop: () => Promise<void>;
  /** µs of CPU per request, per round; the user-space part; PostgreSQL's processes'. */
  total: number[];
  user: number[];
  postgres: number[];
}

/** utime and stime of a process, in clock ticks. */
function cpuTicks(pid: number): { user: number; system: number } {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]), system: Number(fields[12]) };
}

/** utime + stime of every process named postgres, by pid (a backend that exits takes its time along). */
function postgresTicks(): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const t = cpuTicks(Number(entry));
      out.set(Number(entry), t.user + t.system);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const ticksSince = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, t]) => sum + t - (before.get(pid) ?? 0), 0);

const words = (s: string | undefined) => (s ?? '').split(' ').filter(Boolean);
const envOf = (s: string | undefined) =>
  Object.fromEntries(words(s).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));

async function start(name: 'A' | 'B'): Promise<Side> {
  const db = await scratchDatabase(SERVER, `vericase_cpu_ab_${name.toLowerCase()}`);
  const port = await freePort();
  // /readyz answers 503 until the workers run, so this waits for a ready service
  const child = await startProcess(
    [...words(process.env[`CPU_AB_${name}_FLAGS`]), 'bin/vericase.js', 'serve'],
    {
      DATABASE_URL: db.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      VERICASE_BOOTSTRAP_API_KEY: KEY,
      VERICASE_RATE_LIMIT_PER_MINUTE: '0',
      VERICASE_REFERENCE_DIR: '',
      ...envOf(process.env[`CPU_AB_${name}_ENV`]),
    },
    `http://127.0.0.1:${port}/readyz`,
    process.env[`CPU_AB_${name}_DIR`] ?? ROOT,
  );
  const seed = Number(process.env.CPU_AB_SEED_CASES ?? 0);
  if (seed > 0) {
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>('select id from workspaces');
      if (rows.length !== 1) throw new Error(`side ${name}: expected the bootstrap workspace alone`);
      await client.query(SEED_LIST_CASES_SQL, [rows[0].id, seed]);
      await client.query('vacuum analyze cases');
    } finally {
      await client.end();
    }
  }
  // past start-up's own work (the settle collection runs 2 s after the loads, when asked for)
  await new Promise((r) => setTimeout(r, 4000));
  return { name, child, port, drop: db.drop, total: [], user: [], postgres: [] };
}

async function round(side: Side, amount: number, record = true): Promise<void> {
  const pid = side.child.pid as number;
  const before = cpuTicks(pid);
  const postgresBefore = postgresTicks();
  const result = await autocannon({
    url: `http://127.0.0.1:${side.port}${URL_PATH}`,
    method: METHOD,
    headers: { 'x-service-api-key': KEY, 'content-type': 'application/json' },
    body: METHOD === 'POST' ? JSON.stringify(sampleCaseBody()) : undefined,
    connections: CONNECTIONS,
    amount,
  });
  if (result.non2xx || result.errors) throw new Error(`side ${side.name}: ${result.non2xx} non-2xx answers`);
  if (!record) return;
  // the work a request left behind (the webhook dispatcher's next turn) belongs to it
  if (METHOD === 'POST') await new Promise((r) => setTimeout(r, 1000));
  const after = cpuTicks(pid);
  const perRequest = (ticks: number) => (ticks / USER_HZ / amount) * 1e6;
  side.total.push(perRequest(after.user + after.system - before.user - before.system));
  side.user.push(perRequest(after.user - before.user));
  side.postgres.push(perRequest(ticksSince(postgresBefore, postgresTicks())));
}

const median = (xs: number[]) => spread(xs).median;
const sides = [await start('A'), await start('B')];
// CPU_AB_IDLE_FIRST seconds of quiet before the warm-up: long enough (30) for V8's memory reducer
// to run in both processes, as in a service that sat idle after its start
await new Promise((r) => setTimeout(r, Number(process.env.CPU_AB_IDLE_FIRST ?? 0) * 1000));
try {
  for (const side of sides) await round(side, AMOUNT / 2, false); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of sides) await round(side, AMOUNT);
  }
  console.log(
    `\nCPU time per request of ${METHOD} ${URL_PATH} (${ROUNDS} alternating rounds of ${AMOUNT})\n`,
  );
  console.log(
    '| side | µs per request, median | rounds | of which user space, median | PostgreSQL, median |',
  );
  console.log('|---|---:|---|---:|---:|');
  for (const s of sides) {
    console.log(
      `| ${s.name} | ${median(s.total).toFixed(1)} | ${s.total.map((x) => x.toFixed(1)).join(' ')} | ${median(s.user).toFixed(1)} | ${median(s.postgres).toFixed(1)} |`,
    );
  }
  const [a, b] = sides;
  console.log(`\nA / B: ${((median(a.total) / median(b.total)) * 100).toFixed(0)}%`);
} finally {
  for (const s of sides) {
    await stopProcess(s.child);
    await s.drop().catch(() => undefined);
  }
}
