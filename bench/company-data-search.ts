/**
 * Company data over HTTP: `GET /v1/company-data/search` on the sandbox registry (p50/p99 and
 * throughput; each answer stores its candidates' search refs) and `GET /v1/company-data/fetch` of
 * a cached profile, against a vericase app started in this process on the embedded database or,
 * given a URL, PostgreSQL.
 *
 *   node bench/company-data-search.ts            (BENCH_DURATION seconds per run, default 8)
 *
 * The load generator shares the process with the server, so the figures are a floor.
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

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  non2xx: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

export interface CompanyDataBenchRow {
  what: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const WORDS = [
  'acme',
  'globex',
  'initech',
  'umbrella',
  'several stark',
  'wayne',
  'closed cyberdyne',
  'hooli',
];
const COUNTRIES = ['FR', 'GB', 'DE', 'NO', 'US', 'IT', 'ES', 'NL'];

export async function runCompanyDataBench(databaseUrl: string | null): Promise<CompanyDataBenchRow[]> {
  const connections = 10;
  const durationS = Number(process.env.BENCH_DURATION ?? 8);
  const dataDir = await mkdtemp(join(tmpdir(), 'vericase-bench-company-data-'));
  const referenceDir =
    process.env.VERICASE_REFERENCE_DIR ?? resolve(import.meta.dirname, '..', '..', 'shared', 'data');
  const config = {
    ...loadConfig({ ...process.env, DATA_DIR: dataDir, VERICASE_REFERENCE_DIR: referenceDir }),
    databaseUrl,
    host: '127.0.0.1',
    port: 0,
    rateLimitPerMinute: 0,
    authCacheTtlMs: 60_000,
    runWorkers: false,
  };
  const runtime = await openRuntime(config, pino({ level: 'warn' }));
  const app = await buildApp(runtime.ctx);
  try {
    const ws = await createWorkspace(runtime.ctx.db, 'bench-company-data');
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const headers = { 'x-service-api-key': ws.api_key };
    const searches = COUNTRIES.flatMap((country) =>
      WORDS.map((w) => ({
        method: 'GET',
        path: `/v1/company-data/search?country=${country}&name=${encodeURIComponent(w)}`,
      })),
    );
    // one ref per country, fetched once so the measured fetches read the cache (the ELF list is loaded then)
    const refs: string[] = [];
    for (const country of COUNTRIES) {
      const res = await fetch(`${base}/v1/company-data/search?country=${country}&name=acme`, { headers });
      const ref = ((await res.json()) as { data: { search_ref: string }[] }).data[0]?.search_ref;
      if (!ref) throw new Error(`no sandbox candidate for ${country}`);
      await (await fetch(`${base}/v1/company-data/fetch/${ref}`, { headers })).arrayBuffer();
      refs.push(ref);
    }
    const fetches = refs.map((ref) => ({ method: 'GET', path: `/v1/company-data/fetch/${ref}` }));
    const autocannon = (await import('autocannon' as string)).default as Autocannon;
    const rows: CompanyDataBenchRow[] = [];
    for (const [what, requests] of [
      ['search (sandbox), 10 connections', searches],
      ['fetch (cached profile), 10 connections', fetches],
    ] as const) {
      await autocannon({ url: base, connections, duration: 2, headers, requests });
      const r = await autocannon({ url: base, connections, duration: durationS, headers, requests });
      rows.push({
        what,
        rps: Math.round(r.requests.average),
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        errors: r.errors + r.non2xx,
      });
    }
    // one caller, one request at a time, at µs resolution
    const times: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const t = performance.now();
      const res = await fetch(base + searches[i % searches.length].path, { headers });
      await res.arrayBuffer();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const pct = (p: number) => Math.round(times[Math.floor((p / 100) * (times.length - 1))] * 100) / 100;
    rows.push({
      what: 'search (sandbox), one connection',
      rps: 0,
      p50Ms: pct(50),
      p99Ms: pct(99),
      errors: 0,
    });

    const db = databaseUrl ? 'PostgreSQL' : 'PGlite';
    console.log(`\n## company data over HTTP (${db}, server in-process)\n`);
    console.log('| request | req/s | p50 ms | p99 ms | errors |');
    console.log('|---|---:|---:|---:|---:|');
    for (const r of rows)
      console.log(`| ${r.what} | ${r.rps || '-'} | ${r.p50Ms} | ${r.p99Ms} | ${r.errors} |`);
    return rows;
  } finally {
    await app.close();
    await runtime.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  await runCompanyDataBench(process.env.BENCH_DATABASE_URL ?? null);
  process.exit(0);
}
