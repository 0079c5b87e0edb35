/**
 * Case creation from the company registry over HTTP: `POST /v1/cases` with a sandbox `search_ref`
 * and `import_related` (profile from the cache after the first fetch; the company, its holding and
 * its two officers written with their relations, registry link, vendor data and monitoring state)
 * against the same graph typed in the body. A vericase app in this process on the embedded database
 * or, given a URL, PostgreSQL.
 *
 *   node bench/company-data-import.ts            (BENCH_DURATION seconds per run, default 8)
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
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

export interface ImportBenchRow {
  what: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

type Json = any;

/** The graph import_related creates, typed in the body instead. */
function typedBody(p: Json) {
  const person = (m: Json) => ({
    first_name: m.first_name,
    last_name: m.last_name,
    birth_date: m.birth_date,
    birth_country: m.birth_country,
    nationalities: m.nationalities,
    address: m.address,
    is_beneficial_owner: m.is_beneficial_owner,
    relations: [{ roles: m.roles, ownership_percentage: m.ownership_percentage, position: m.position }],
  });
  return {
    name: 'Typed case',
    companies: [
      {
        name: p.name,
        registration_number: p.registration_number,
        country: p.country,
        status: p.status,
        registration_date: p.registration_date,
        legal_form: p.legal_form,
        entity_legal_form: p.entity_legal_form,
        address: p.address,
        share_capital: p.share_capital,
        tax_identification_number: p.tax_identification_number,
        classifications: p.classifications,
      },
      ...p.merged_companies.map((c: Json) => ({
        type: 'affiliated',
        name: c.name,
        registration_number: c.registration_number,
        country: c.country,
        legal_form: c.legal_form,
        entity_legal_form: c.entity_legal_form,
        address: c.address,
        relations: c.relations,
      })),
    ],
    individuals: p.merged_individuals.map(person),
  };
}

export async function runCompanyDataImportBench(databaseUrl: string | null): Promise<ImportBenchRow[]> {
  const connections = 10;
  const durationS = Number(process.env.BENCH_DURATION ?? 8);
  const dataDir = await mkdtemp(join(tmpdir(), 'vericase-bench-import-'));
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
    const ws = await createWorkspace(runtime.ctx.db, 'bench-company-data-import');
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const headers = { 'x-service-api-key': ws.api_key, 'content-type': 'application/json' };
    const search = await fetch(`${base}/v1/company-data/search?country=FR&name=acme`, { headers });
    const ref = ((await search.json()) as Json).data[0].search_ref as string;
    const profile = await (await fetch(`${base}/v1/company-data/fetch/${ref}`, { headers })).json();
    const bodies = [
      [
        'from search_ref, import_related',
        JSON.stringify({ name: 'Imported case', companies: [{ search_ref: ref, import_related: true }] }),
      ],
      ['typed fields, same graph', JSON.stringify(typedBody(profile))],
    ] as const;
    for (const [what, body] of bodies) {
      const check = await fetch(`${base}/v1/cases`, { method: 'POST', headers, body });
      if (check.status !== 201) throw new Error(`${what}: ${check.status} ${await check.text()}`);
    }
    const rows: ImportBenchRow[] = [];
    // one caller, one request at a time, the two kinds alternating (after a warm-up) so that both
    // see the same machine and the same table sizes
    const post = async (body: string) => {
      const t = performance.now();
      const res = await fetch(`${base}/v1/cases`, { method: 'POST', headers, body });
      await res.arrayBuffer();
      return performance.now() - t;
    };
    for (let i = 0; i < 30; i++) for (const [, body] of bodies) await post(body);
    const times = bodies.map(() => [] as number[]);
    for (let i = 0; i < 300; i++)
      for (const [k, [, body]] of bodies.entries()) times[k].push(await post(body));
    for (const [k, [what]] of bodies.entries()) {
      const sorted = times[k].sort((a, b) => a - b);
      const pct = (p: number) => Math.round(sorted[Math.floor((p / 100) * (sorted.length - 1))] * 100) / 100;
      rows.push({ what: `${what}, one connection`, rps: 0, p50Ms: pct(50), p99Ms: pct(99), errors: 0 });
    }
    const autocannon = (await import('autocannon' as string)).default as Autocannon;
    for (const [what, body] of bodies) {
      const opts = { url: `${base}/v1/cases`, method: 'POST', connections, headers, body };
      // requests cut off at the end of a run may still be running: let them finish first
      const settle = () => new Promise((done) => setTimeout(done, 3000));
      await autocannon({ ...opts, duration: 2 });
      await settle();
      const r = await autocannon({ ...opts, duration: durationS });
      await settle();
      rows.push({
        what: `${what}, ${connections} connections`,
        rps: Math.round(r.requests.average),
        p50Ms: r.latency.p50,
        p99Ms: r.latency.p99,
        errors: r.errors + r.non2xx,
      });
    }
    const db = databaseUrl ? 'PostgreSQL' : 'PGlite';
    console.log(`\n## case creation from the registry vs typed (${db}, server in-process)\n`);
    console.log('| POST /v1/cases | req/s | p50 ms | p99 ms | errors |');
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
  await runCompanyDataImportBench(process.env.BENCH_DATABASE_URL ?? null);
  process.exit(0);
}
