/**
 * Screening speed benchmark: index build time and memory for OFAC SDN (2019) + UN (~8,400 entities),
 * in-process search latency (p50/p99) and throughput over a mix of listed-name variants and ordinary
 * names.
 *
 *   node bench/screening-speed.ts [--queries N]
 *
 * `runScreeningSpeedBench()` returns the figures so `npm run bench` can include them.
 */
import { fileURLToPath } from 'node:url';
import { buildIndex } from '../src/screening/engine/build.ts';
import { search } from '../src/screening/engine/search.ts';
import { generateOrdinaryNames, generateVariants, loadBenchIndex, prng } from './screening-quality.ts';

export interface ScreeningSpeedReport {
  entities: number;
  nameRecords: number;
  postingKeys: number;
  loadMs: number;
  buildMs: number;
  heapDeltaMb: number;
  rssMb: number;
  queries: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  throughputQps: number;
  meanResults: number;
}

const round = (x: number, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

export async function runScreeningSpeedBench(
  options: { queries?: number } = {},
): Promise<ScreeningSpeedReport> {
  const { entities, index: warm, loadMs } = await loadBenchIndex();
  // Measure a fresh build (the warm-up build above also JIT-compiles the normaliser).
  globalThis.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const index = buildIndex(entities, { legalForms: warm.legalForms });
  const buildMs = performance.now() - t0;
  globalThis.gc?.();
  const heapDeltaMb = (process.memoryUsage().heapUsed - heapBefore) / 1e6;

  const n = options.queries ?? 4000;
  const variants = generateVariants(entities, Math.ceil(n / 2), 99, index.legalForms).map((v) => v.query);
  const ordinary = generateOrdinaryNames(index, Math.floor(n / 2), 100);
  const queries = [...variants, ...ordinary];
  // Shuffle deterministically so listed and ordinary queries interleave.
  const rand = prng(5);
  for (let i = queries.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [queries[i], queries[j]] = [queries[j], queries[i]];
  }
  for (const q of queries.slice(0, 500)) search(index, { name: q }); // warm-up
  const times = new Float64Array(queries.length);
  let results = 0;
  const start = performance.now();
  for (let i = 0; i < queries.length; i++) {
    const t = performance.now();
    results += search(index, { name: queries[i] }).length;
    times[i] = performance.now() - t;
  }
  const total = performance.now() - start;
  times.sort();
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
  return {
    entities: index.stats.entities,
    nameRecords: index.stats.records,
    postingKeys: index.stats.keys,
    loadMs: round(loadMs, 1),
    buildMs: round(buildMs, 1),
    heapDeltaMb: round(heapDeltaMb, 1),
    rssMb: round(process.memoryUsage().rss / 1e6, 1),
    queries: queries.length,
    p50Ms: round(pct(0.5)),
    p90Ms: round(pct(0.9)),
    p99Ms: round(pct(0.99)),
    maxMs: round(times[times.length - 1]),
    throughputQps: Math.round(queries.length / (total / 1000)),
    meanResults: round(results / queries.length, 2),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--queries');
  const r = await runScreeningSpeedBench({ queries: i > 0 ? Number(process.argv[i + 1]) : undefined });
  console.log(`entities ${r.entities}, name records ${r.nameRecords}, posting keys ${r.postingKeys}`);
  console.log(
    `list load+parse ${r.loadMs} ms, index build ${r.buildMs} ms, index heap ≈ ${r.heapDeltaMb} MB, RSS ${r.rssMb} MB`,
  );
  console.log(
    `${r.queries} queries: p50 ${r.p50Ms} ms, p90 ${r.p90Ms} ms, p99 ${r.p99Ms} ms, max ${r.maxMs} ms, ` +
      `${r.throughputQps} queries/s single-threaded (goal p50 < 0.5 ms), mean results ${r.meanResults}`,
  );
}
