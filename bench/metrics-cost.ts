/**
 * Issue 16: the cost of the Prometheus metrics on the ping and create-case benchmarks, on vs off in
 * the same run. The real server (`vericase serve`, its own process, no workers) is started with
 * VERICASE_METRICS=true, then false, then both again (ABAB: the machine's drift shows as the
 * difference between the two runs of one setting), on one database seeded once. `/metrics` is
 * scraped every second during the "on" runs, as a Prometheus would (more often than usual).
 *
 * BENCH_ONLY=metrics npm run bench, or `node bench/metrics-cost.ts` (DATABASE_URL for PostgreSQL).
 * OpenTelemetry tracing is not implemented: there is no tracing column yet.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/runtime.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';
import { sampleCaseBody } from '../test/helpers/harness.ts';
import { type Figures, load, printTable, startService, stopProcess } from './lib.ts';

async function seedKey(env: NodeJS.ProcessEnv): Promise<string> {
  const config = loadConfig({ ...process.env, ...env, VERICASE_RUN_WORKERS: 'false', LOG_LEVEL: 'warn' });
  const rt = await openRuntime(config, pino({ level: 'warn' }));
  try {
    return (await createWorkspace(rt.ctx.db, 'bench-metrics')).api_key;
  } finally {
    await rt.close();
  }
}

type Mode = 'on' | 'on, not scraped' | 'off';

async function measure(env: NodeJS.ProcessEnv, key: string, mode: Mode, round: number): Promise<Figures[]> {
  const metrics = mode !== 'off';
  const { base, server } = await startService({
    ...env,
    LOG_LEVEL: 'warn',
    VERICASE_RATE_LIMIT_PER_MINUTE: '0',
    VERICASE_RUN_WORKERS: 'false',
    VERICASE_METRICS: String(metrics),
  });
  // a scraper during the scraped runs
  const scraper =
    mode === 'on'
      ? setInterval(() => {
          fetch(`${base}/metrics`)
            .then((r) => r.text())
            .catch(() => undefined);
        }, 1000)
      : undefined;
  const label = `metrics ${mode} (run ${round})`;
  try {
    const h = { 'x-service-api-key': key, 'content-type': 'application/json' };
    return [
      await load(`GET /v1/ping, ${label}`, { url: `${base}/v1/ping`, headers: h }),
      await load(`POST /v1/cases, ${label}`, {
        url: `${base}/v1/cases`,
        method: 'POST',
        headers: h,
        body: JSON.stringify(sampleCaseBody()),
        connections: 10,
      }),
    ];
  } finally {
    clearInterval(scraper);
    await stopProcess(server);
  }
}

export async function runMetricsCostBench(databaseUrl: string | null): Promise<Figures[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-bench-metrics-'));
  const env: NodeJS.ProcessEnv = databaseUrl
    ? { DATABASE_URL: databaseUrl }
    : { DATABASE_URL: '', DATA_DIR: dataDir };
  const label = databaseUrl ? 'PostgreSQL' : 'PGlite';
  const key = await seedKey(env);
  const rows: Figures[] = [];
  for (const round of [1, 2]) {
    for (const mode of ['on', 'on, not scraped', 'off'] as const)
      rows.push(...(await measure(env, key, mode, round)));
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  printTable(`Metrics on vs off on ${label} (2 cores; autocannon, 20 connections, 10 for writes)`, rows);
  for (const what of ['GET /v1/ping', 'POST /v1/cases']) {
    const avg = (mode: Mode) => {
      const r = rows.filter((x) => x.name.startsWith(what) && x.name.includes(`metrics ${mode} (`));
      return r.reduce((a, x) => a + x.rps, 0) / r.length;
    };
    const off = avg('off');
    const cost = (mode: Mode) =>
      `${Math.round(avg(mode))} req/s (${((1 - avg(mode) / off) * 100).toFixed(1)}% below off)`;
    console.log(
      `${what}: off ${Math.round(off)} req/s; on ${cost('on')}; on, not scraped ${cost('on, not scraped')}`,
    );
  }
  return rows;
}

if (import.meta.main) {
  await runMetricsCostBench(process.env.DATABASE_URL || null);
}
