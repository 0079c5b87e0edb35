/**
 * Screening index memory: heap held by the loaded sanctions lists (entities + index) as the service
 * keeps them, index build time, and a hash of the results of a fixed set of queries (to prove a change of
 * the index's layout changes no result, score, order or response body).
 *
 *   node --expose-gc bench/screening-memory.ts [reference dir, default ../shared/data]
 *
 * The queries are derived deterministically from the lists themselves: listed names with typos
 * (deletion, transposition, substitution, insertion), reordered names, persons with birth dates,
 * countries and gender, kind and list-type filters, exact matches, identifiers and fuzziness variations.
 *
 * `child` repeats the load as the service does it (in a child process, the index sent back): the heap it
 * holds in this process and the hashes of the same queries on it (equal to the in-process ones).
 */
import { createHash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { entityOf } from '../src/checks/types/aml/screen.ts';
import { ScreeningRegistry } from '../src/screening/engine/registry.ts';
import type { ScreeningQuery } from '../src/screening/engine/search.ts';
import type { ScreeningEntity } from '../src/screening/entity.ts';
import {
  loadLegalFormsFromDirectory,
  loadReferenceDirectory,
} from '../src/screening/lists/load-directory.ts';
import { loadDirectoryInChild } from '../src/screening/service/list-load.ts';
import { presentMatch } from '../src/screening/service/present.ts';

const here = dirname(fileURLToPath(import.meta.url));
const dir = resolve(process.argv[2] ?? join(here, '..', '..', 'shared', 'data'));

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) {
  console.error('run with node --expose-gc');
  process.exit(2);
}
function heapMb(): number {
  for (let i = 0; i < 4; i++) gc!();
  return process.memoryUsage().heapUsed / 1e6;
}
const r1 = (x: number) => Math.round(x * 10) / 10;

/** Deterministic typo number `k` applied to `s` (a letter position chosen from the string itself). */
function typo(s: string, k: number): string {
  const letters: number[] = [];
  for (let i = 0; i < s.length; i++) if (/[A-Za-z]/.test(s[i])) letters.push(i);
  if (letters.length < 4) return s;
  const p = letters[(k * 7 + s.length) % letters.length];
  switch (k % 4) {
    case 0:
      return s.slice(0, p) + s.slice(p + 1); // deletion
    case 1: {
      const q = p + 1 < s.length ? p : p - 1; // transposition
      return s.slice(0, q) + s[q + 1] + s[q] + s.slice(q + 2);
    }
    case 2: {
      const c = s[p] === 'e' || s[p] === 'E' ? 'a' : 'e'; // substitution
      return s.slice(0, p) + c + s.slice(p + 1);
    }
    default:
      return s.slice(0, p) + s[p] + s.slice(p); // doubled letter
  }
}

function queriesFrom(entities: ScreeningEntity[]): ScreeningQuery[] {
  const out: ScreeningQuery[] = [];
  const n = entities.length;
  const pick = (i: number) => entities[(i * 7919) % n];
  for (let i = 0; i < 80; i++) {
    const e = pick(i);
    out.push({ name: typo(e.name, i) });
  }
  for (let i = 80; i < 110; i++) {
    const e = pick(i);
    const alias = e.aliases.length ? e.aliases[i % e.aliases.length].name : e.name;
    out.push({ name: i % 2 ? alias : typo(alias, i), fuzziness: (i % 5) / 4 });
  }
  // Persons with birth dates, countries, gender.
  const persons = entities.filter((e) => e.kind === 'person' && e.birth_dates.length);
  for (let i = 0; i < 50; i++) {
    const e = persons[(i * 613) % persons.length];
    const bd = e.birth_dates[0];
    const year = Number(bd.slice(0, 4));
    const birth = i % 3 === 0 ? bd : i % 3 === 1 ? String(year + (i % 7) - 3) : `${year}-01-01`;
    const country = [...e.nationalities, ...e.countries][0] ?? (i % 2 ? 'DE' : 'IR');
    out.push({
      name: i % 2 ? typo(e.name, i) : e.name.split(/[ ,]+/).reverse().join(' '),
      kind: 'person',
      birth_date: birth,
      countries: i % 4 === 0 ? ['FR'] : [country],
      nationality: i % 5 === 0 ? 'Iran' : undefined,
      gender: i % 6 === 0 ? 'male' : i % 6 === 1 ? 'female' : undefined,
    });
  }
  // Organisations / vessels with kind filters and list types.
  const others = entities.filter((e) => e.kind !== 'person');
  for (let i = 0; i < 25; i++) {
    const e = others[(i * 331) % others.length];
    out.push({
      name: typo(e.name, i + 1),
      kind: i % 3 === 0 ? 'company' : i % 3 === 1 ? e.kind : undefined,
      list_types: i % 4 === 0 ? ['sanction'] : i % 4 === 1 ? ['pep'] : undefined,
      limit: i % 2 ? 3 : 25,
    });
  }
  // Exact matches, identifiers, low thresholds.
  for (let i = 0; i < 10; i++) {
    const e = pick(i * 13 + 5);
    out.push({ name: e.name, exact_match: true });
  }
  const withIds = entities.filter((e) => e.identifiers.length);
  for (let i = 0; i < 10; i++) {
    const e = withIds[(i * 97) % withIds.length];
    out.push({ name: i % 2 ? 'Nobody Known' : e.name, identifiers: [{ value: e.identifiers[0].value }] });
  }
  for (let i = 0; i < 10; i++) {
    const e = pick(i * 31 + 11);
    out.push({ name: typo(typo(e.name, i), i + 2), min_score: 0.6, limit: 50 });
  }
  out.push({ name: 'Mohammed Ali' }, { name: 'Bank' }, { name: '' }, { name: 'al Qaida' });
  return out;
}

async function main() {
  const base = heapMb();
  // What the service does: ScreeningRegistry.load(dir) = loadReferenceDirectory + ELF legal forms + buildIndex.
  const [results, elf] = await Promise.all([loadReferenceDirectory(dir), loadLegalFormsFromDirectory(dir)]);
  const entityCount = results.reduce((a, r) => a + r.entities.length, 0);
  const queries = queriesFrom(results.flatMap((r) => r.entities));
  const withLists = heapMb();
  const registry = new ScreeningRegistry();
  registry.replace(results, elf?.legalForms);
  results.length = 0; // the registry keeps only what the index keeps
  const stats = registry.snapshot!.index.stats;
  const withIndex = heapMb();
  const rss = process.memoryUsage().rss / 1e6;

  // Build time: a few more builds from freshly loaded lists (the first one also JIT-compiles).
  const builds: number[] = [stats.buildMs];
  for (let i = 0; i < 2; i++) {
    const again = await loadReferenceDirectory(dir);
    const reg = new ScreeningRegistry();
    reg.replace(again, elf?.legalForms);
    builds.push(reg.snapshot!.index.stats.buildMs);
  }

  const hashes = (reg: ScreeningRegistry) => {
    const strict = createHash('sha256');
    const bodies = createHash('sha256');
    let hits = 0;
    const hitsByQuery: number[] = [];
    for (const q of queries) {
      const matches = reg.search(q);
      hits += matches.length;
      hitsByQuery.push(matches.length);
      for (const m of matches) {
        strict.update(JSON.stringify(m));
        bodies.update(JSON.stringify({ api: presentMatch(m), aml: entityOf(m) }));
      }
      strict.update('|');
      bodies.update('|');
    }
    return { strict, bodies, hits, hitsByQuery };
  };
  const t0 = performance.now();
  const { strict, bodies, hits, hitsByQuery } = hashes(registry);
  const searchMs = performance.now() - t0;
  const passes: number[] = [];
  for (let p = 0; p < 5; p++) {
    const t = performance.now();
    for (const q of queries) registry.search(q);
    passes.push(r1(performance.now() - t));
  }

  // The service's way: loaded in a child process, the index sent back.
  const beforeWorker = heapMb();
  const workerRegistry = new ScreeningRegistry();
  const tw = performance.now();
  let pid = 0;
  await workerRegistry.loadPrepared(async (options) => {
    const load = await loadDirectoryInChild(dir, options);
    pid = load.pid;
    return load.prepared;
  });
  const workerLoadMs = performance.now() - tw;
  const workerHeld = heapMb() - beforeWorker;
  const viaWorker = hashes(workerRegistry);
  const sameLists =
    JSON.stringify(workerRegistry.versions) === JSON.stringify(registry.versions) &&
    workerRegistry.snapshot!.legalForms === (elf?.version ?? undefined);
  console.log(
    JSON.stringify(
      {
        dir,
        entities: entityCount,
        stats: { ...stats, buildMs: r1(stats.buildMs) },
        heapMb: {
          base: r1(base),
          listsLoaded: r1(withLists),
          indexOnlyHeld: r1(withIndex),
          heldByIndex: r1(withIndex - base),
        },
        rssMb: r1(rss),
        maxRssMb: r1(process.resourceUsage().maxRSS / 1e3),
        buildMs: builds.map(r1),
        queries: queries.length,
        hits,
        /** Queries with 0, 1, 2–5 and more results. */
        hitDistribution: [0, 1, 2, 6].map(
          (lo, i, all) =>
            hitsByQuery.filter((n) => n >= lo && (i === all.length - 1 || n < all[i + 1])).length,
        ),
        searchMs: r1(searchMs),
        searchPassesMs: passes,
        hash: strict.digest('hex').slice(0, 16),
        bodiesHash: bodies.digest('hex').slice(0, 16),
        child: {
          pid,
          loadMs: r1(workerLoadMs),
          heapHeldMb: r1(workerHeld),
          sameLists,
          hits: viaWorker.hits,
          hash: viaWorker.strict.digest('hex').slice(0, 16),
          bodiesHash: viaWorker.bodies.digest('hex').slice(0, 16),
        },
      },
      null,
      2,
    ),
  );
}

await main();
