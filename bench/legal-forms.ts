/**
 * Issue 11 figures: loading the ISO 20275 legal-form list (the reference data's ELF CSV) — time to
 * read, parse and index it, the heap the index keeps and the process RSS it adds — and what a request
 * pays once it is loaded (the file-signature check of getLegalForms, the FR list presented).
 *
 * Run directly with `node --expose-gc bench/legal-forms.ts` (npm run bench does), so the heap is
 * measured after full collections. BENCH_REFERENCE_DIR overrides the directory (default ../shared/data).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { getLegalForms } from '../src/company-data/legal-forms/index.ts';
import { LegalFormIndex } from '../src/company-data/legal-forms/legal-form-index.ts';
import { presentLegalForm } from '../src/company-data/legal-forms/present.ts';
import type { Config } from '../src/config.ts';
import { newestElfFile, parseElfCsv } from '../src/shared/elf-csv.ts';
import { percentile, ROOT } from './lib.ts';

const dir = process.env.BENCH_REFERENCE_DIR ?? path.resolve(ROOT, '../shared/data');
const gc = (globalThis as { gc?: () => void }).gc;
const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (v: number) => `${v.toFixed(1)} ms`;

function collect(): void {
  if (!gc) return;
  for (let i = 0; i < 3; i++) gc();
}

export async function runLegalFormsBench(): Promise<void> {
  const file = await newestElfFile(dir);
  if (!file) {
    console.log(`(legal forms: no elf/iso-20275-*.csv under ${dir})`);
    return;
  }
  if (!gc) console.log('(run with --expose-gc for exact heap figures)');

  // memory first, in a fresh heap: what the kept index costs
  collect();
  const before = process.memoryUsage();
  const ctx = { config: { referenceDir: dir, dataDir: '/nonexistent' } as Config };
  const t0 = performance.now();
  const index = await getLegalForms(ctx);
  const coldMs = performance.now() - t0;
  if (!index) throw new Error('no list loaded');
  collect();
  const after = process.memoryUsage();

  // then the phases, repeated (warm JIT): read, parse, build
  const read: number[] = [];
  const parse: number[] = [];
  const build: number[] = [];
  for (let i = 0; i < 10; i++) {
    let t = performance.now();
    const text = await readFile(file.path, 'utf8');
    read.push(performance.now() - t);
    t = performance.now();
    const rows = parseElfCsv(text);
    parse.push(performance.now() - t);
    t = performance.now();
    new LegalFormIndex(rows, file.name);
    build.push(performance.now() - t);
  }

  // a request once loaded: the signature check (readdir + stat), then the FR list presented
  const warm: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t = performance.now();
    await getLegalForms(ctx);
    warm.push(performance.now() - t);
  }
  const present: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t = performance.now();
    JSON.stringify(index.forCountry('FR').map(presentLegalForm));
    present.push(performance.now() - t);
  }

  for (const xs of [read, parse, build, warm, present]) xs.sort((a, b) => a - b);
  const median = (xs: number[]) => percentile(xs, 50);
  const rows: [string, string][] = [
    ['first getLegalForms (read + parse + index, cold process)', ms(coldMs)],
    [
      'read / parse / index, warm (median of 10)',
      `${ms(median(read))} / ${ms(median(parse))} / ${ms(median(build))}`,
    ],
    ['heap kept by the index', MB(after.heapUsed - before.heapUsed)],
    ['process RSS added by the first load', MB(after.rss - before.rss)],
    [
      'getLegalForms once loaded (signature check), p50 / p99',
      `${median(warm).toFixed(3)} / ${percentile(warm, 99).toFixed(3)} ms`,
    ],
    [
      'FR forms presented as JSON (273 forms), p50 / p99',
      `${median(present).toFixed(3)} / ${percentile(present, 99).toFixed(3)} ms`,
    ],
  ];
  console.log(`\n## Legal forms: ${file.name} (${index.size} active forms)\n`);
  console.log('| measurement | figure |\n|---|---|');
  for (const [name, figure] of rows) console.log(`| ${name} | ${figure} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runLegalFormsBench();
