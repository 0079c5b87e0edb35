/**
 * `npm run bench`: every benchmark, printed as tables. Runs the HTTP benchmarks on PGlite and, when
 * reachable, on PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/bench,
 * reset first). BENCH_ONLY=foundation,startup,list-1m,checks,...,legal-forms,portal,observability,render-sign,metrics picks sections; BENCH_DURATION sets seconds per run.
 * The comparisons: BENCH_WARMUP, BENCH_ROUNDS and BENCH_ROUND_SECONDS (bench/lib.ts); the ping ratio's
 * BENCH_PING_PAIRS and BENCH_PING_ROUNDS (bench/foundation.ts).
 * Numbers on a shared 2-core machine are noisy (up to 2x): compare runs made on a quiet machine.
 */
import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { printVerdicts } from './goals.ts';

const only = process.env.BENCH_ONLY?.split(',');
const want = (name: string) => !only || only.includes(name);
const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/bench';

async function resetBenchDatabase(): Promise<string | null> {
  const url = new URL(pgUrl);
  const dbName = url.pathname.slice(1);
  const admin = new URL(pgUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch {
    console.log(`PostgreSQL at ${pgUrl} unreachable: PostgreSQL figures skipped.`);
    return null;
  }
  try {
    await client.query(`drop database if exists "${dbName}" with (force)`);
    await client.query(`create database "${dbName}"`);
    return pgUrl;
  } finally {
    await client.end();
  }
}

type Section = {
  name: string;
  run: (databaseUrl: string | null) => Promise<unknown>;
  databases: 'both' | 'one';
};

const sections: Section[] = [
  {
    name: 'foundation',
    databases: 'both',
    run: async (url) => (await import('./foundation.ts')).runFoundationBench(url),
  },
  {
    name: 'startup',
    databases: 'both',
    // `vericase serve` in its own process: time to the first answer, to /readyz, idle memory
    run: async (url) => (await import('./startup.ts')).runStartupBench(url),
  },
  {
    name: 'list-1m',
    databases: 'one',
    // the case, company, individual, check and webhook-log lists over 1,000,000 cases, every filter x
    // sort (~6 min seeding + ~40 min; BENCH_LIST_1M_LISTS picks lists): only with BENCH_1M=1
    run: async () => {
      if (process.env.BENCH_1M !== '1') return console.log('(list-1m: set BENCH_1M=1 to run it)');
      const url = await resetBenchDatabase();
      if (url) await (await import('./lists-1m.ts')).runLists1mBench(url);
    },
  },
  { name: 'checks', databases: 'one', run: async (url) => (await import('./checks.ts')).runChecksBench(url) },
  { name: 'webhooks', databases: 'one', run: async () => (await import('./webhooks.ts')).runWebhookBench() },
  {
    name: 'screening',
    databases: 'one',
    run: async () => {
      // these scripts print their own report when run directly
      for (const script of ['bench/screening-speed.ts', 'bench/screening-quality.ts']) {
        spawnSync(process.execPath, [script], { stdio: 'inherit' });
      }
    },
  },
  {
    name: 'screening-http',
    databases: 'one',
    run: async () => (await import('./screening-http.ts')).runScreeningHttpBench(),
  },
  {
    name: 'legal-forms',
    databases: 'one',
    // its own process, with --expose-gc, so the heap kept by the index is measured exactly
    run: async () =>
      void spawnSync(process.execPath, ['--expose-gc', 'bench/legal-forms.ts'], { stdio: 'inherit' }),
  },
  {
    name: 'company-data',
    databases: 'both',
    run: async (url) => (await import('./company-data-search.ts')).runCompanyDataBench(url),
  },
  {
    name: 'company-data-import',
    databases: 'both',
    run: async (url) => (await import('./company-data-import.ts')).runCompanyDataImportBench(url),
  },
  {
    name: 'case-reports',
    databases: 'both',
    run: async (url) => (await import('./case-reports.ts')).runCaseReportBench(url),
  },
  {
    name: 'document-analysis',
    databases: 'one',
    // its own process, so the first call really pays pdf.js loading and the OCR worker start
    run: async () => void spawnSync(process.execPath, ['bench/document-analysis.ts'], { stdio: 'inherit' }),
  },
  {
    name: 'observability',
    databases: 'one',
    run: async () => (await import('./observability.ts')).runObservabilityBench(),
  },
  {
    name: 'portal',
    databases: 'one',
    // its own process: headless Chromium and the service it loads the page from
    run: async () => void spawnSync(process.execPath, ['bench/portal-page.ts'], { stdio: 'inherit' }),
  },
  {
    name: 'console',
    databases: 'one',
    // its own process: headless Chromium and the service it loads the console from
    run: async () => void spawnSync(process.execPath, ['bench/console.ts'], { stdio: 'inherit' }),
  },
  {
    name: 'console-case-page',
    databases: 'one',
    // its own process: headless Chromium and the service it loads the case page from
    run: async () => void spawnSync(process.execPath, ['bench/console-case-page.ts'], { stdio: 'inherit' }),
  },
  {
    name: 'render-sign',
    databases: 'one',
    // its own process: the first render pays the browser's start, the first signature the certificate
    run: async () => void spawnSync(process.execPath, ['bench/render-sign.ts'], { stdio: 'inherit' }),
  },
  {
    name: 'metrics',
    databases: 'both',
    // ping and create-case with the Prometheus metrics on and off, alternating, in one run
    run: async (url) => (await import('./metrics-cost.ts')).runMetricsCostBench(url),
  },
];

for (const s of sections) {
  if (!want(s.name)) continue;
  console.log(`\n# ${s.name}`);
  try {
    if (s.databases === 'both') {
      await s.run(null);
      const url = await resetBenchDatabase();
      if (url) await s.run(url);
    } else {
      await s.run(null);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND')
      console.log(`(${s.name}: not available yet)`);
    else throw err;
  }
}
printVerdicts();
process.exit(0);
