/**
 * Screening over HTTP: `GET /v1/screening/search` latency (p50/p99) and throughput, measured with
 * autocannon against a vericase app started in this process (embedded PGlite in a temporary DATA_DIR,
 * lists from VERICASE_REFERENCE_DIR or ../shared/data). The query mix is the one of
 * bench/screening-speed.ts: half variants of listed names, half ordinary names.
 *
 *   node bench/screening-http.ts            (BENCH_DURATION seconds per run, default 8)
 *
 * The load generator shares the process (and the core) with the server, so the figures are a floor.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { openRuntime } from '../src/runtime.ts';
import { createWorkspace } from '../src/workspaces/repository.ts';
import { generateOrdinaryNames, generateVariants } from './screening-quality.ts';

export interface ScreeningHttpReport {
  connections: number;
  durationS: number;
  queries: number;
  requests: number;
  throughputRps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: number;
  listsLoadMs: number;
  /** One connection, one request at a time (sub-millisecond resolution, autocannon's is 1 ms). */
  sequential: { requests: number; p50Ms: number; p99Ms: number; rps: number };
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p90: number; p99: number; max: number };
  errors: number;
  non2xx: number;
  duration: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

export async function runScreeningHttpBench(
  options: { connections?: number; durationS?: number; queries?: number } = {},
): Promise<ScreeningHttpReport> {
  const connections = options.connections ?? 10;
  const durationS = options.durationS ?? Number(process.env.BENCH_DURATION ?? 8);
  const dataDir = await mkdtemp(join(tmpdir(), 'vericase-bench-screening-'));
  const referenceDir =
    process.env.VERICASE_REFERENCE_DIR ?? resolve(import.meta.dirname, '..', '..', 'shared', 'data');
  const config = {
    ...loadConfig({ ...process.env, DATA_DIR: dataDir, VERICASE_REFERENCE_DIR: referenceDir }),
    databaseUrl: null,
    host: '127.0.0.1',
    port: 0,
    rateLimitPerMinute: 0,
    authCacheTtlMs: 60_000,
    runWorkers: false,
  };
  const runtime = await openRuntime(config, pino({ level: 'warn' }));
  const app = await buildApp(runtime.ctx);
  try {
    const t0 = performance.now();
    const service = runtime.ctx.screening;
    if (!service) throw new Error('the screening module is not installed');
    await service.whenSettled(120_000);
    if (!service.available) throw new Error(service.unavailableMessage());
    const listsLoadMs = performance.now() - t0;
    const ws = await createWorkspace(runtime.ctx.db, 'bench-screening');
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const snapshot = service.registry.snapshot;
    if (!snapshot) throw new Error('no index');
    const entities = snapshot.index.entities;
    const n = options.queries ?? 1000;
    const names = [
      ...generateVariants(entities, Math.ceil(n / 2), 99, snapshot.index.legalForms).map((v) => v.query),
      ...generateOrdinaryNames(snapshot.index, Math.floor(n / 2), 100),
    ];
    const requests = names.map((name) => ({
      method: 'GET',
      path: `/v1/screening/search?name=${encodeURIComponent(name)}`,
    }));
    const autocannon = (await import('autocannon' as string)).default as Autocannon;
    const headers = { 'x-service-api-key': ws.api_key };
    // warm-up (JIT, auth cache) before the measured run
    await autocannon({ url: base, connections, duration: 2, headers, requests });
    const r = await autocannon({ url: base, connections, duration: durationS, headers, requests });
    // one connection, one request at a time: the latency a single caller sees, at µs resolution
    const times: number[] = [];
    const seqStart = performance.now();
    for (let i = 0; i < Math.min(4000, requests.length * 4); i++) {
      const t = performance.now();
      const res = await fetch(base + requests[i % requests.length].path, { headers });
      await res.arrayBuffer();
      times.push(performance.now() - t);
    }
    const seqMs = performance.now() - seqStart;
    times.sort((a, b) => a - b);
    const pct = (p: number) =>
      Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] * 1000) / 1000;
    const report: ScreeningHttpReport = {
      connections,
      durationS,
      queries: names.length,
      requests: r.requests.total,
      throughputRps: Math.round(r.requests.average),
      p50Ms: r.latency.p50,
      p90Ms: r.latency.p90,
      p99Ms: r.latency.p99,
      maxMs: r.latency.max,
      errors: r.errors + r.non2xx,
      listsLoadMs: Math.round(listsLoadMs),
      sequential: {
        requests: times.length,
        p50Ms: pct(50),
        p99Ms: pct(99),
        rps: Math.round((times.length / seqMs) * 1000),
      },
    };
    console.log('\n## screening over HTTP (GET /v1/screening/search, server in-process)\n');
    console.log('| connections | queries | req/s | p50 ms | p90 ms | p99 ms | max ms | errors |');
    console.log('|---:|---:|---:|---:|---:|---:|---:|---:|');
    console.log(
      `| ${connections} | ${names.length} | ${report.throughputRps} | ${report.p50Ms} | ${report.p90Ms} | ${report.p99Ms} | ${report.maxMs} | ${report.errors} |`,
    );
    const q = report.sequential;
    console.log(
      `\nOne connection, sequential: ${q.requests} requests, p50 ${q.p50Ms} ms, p99 ${q.p99Ms} ms, ${q.rps} req/s`,
    );
    return report;
  } finally {
    await app.close();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const report = await runScreeningHttpBench();
  console.log(JSON.stringify(report, null, 2));
}
