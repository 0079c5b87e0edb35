/**
 * Screening quality benchmark (deterministic: seeded PRNG).
 *
 *   node bench/screening-quality.ts [--variants N] [--ordinary N] [--verbose]
 *
 * Builds the index from the shipped OFAC SDN (2019) + UN consolidated lists, then measures
 * - recall: share of generated variants of listed names (typo, transposition, token reordering, dropped
 *   middle name, transliteration difference) whose source entity is in the top 3 at the default threshold;
 * - false positives: share of ordinary names (generated from common first/last names, excluding any that
 *   are literally on the lists) with any hit at the default threshold.
 * Goals: recall ≥ 95 %, false positives < 1 %.
 */

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { doubleMetaphone } from 'double-metaphone';
import { buildIndex, type ScreeningIndex } from '../src/screening/engine/build.ts';
import { fuzzinessToThreshold, search } from '../src/screening/engine/search.ts';
import type { ScreeningEntity } from '../src/screening/entity.ts';
import { loadLegalFormsFromDirectory, loadOfacSdnDirectory } from '../src/screening/lists/load-directory.ts';
import { loadUnConsolidated } from '../src/screening/lists/un-consolidated.ts';
import { type LegalForms, nameTokens, normalizeText, reorderCommaName } from '../src/screening/normalize.ts';

export function referenceDir(): string {
  return process.env.VERICASE_REFERENCE_DIR ?? fileURLToPath(new URL('../../shared/data', import.meta.url));
}

/** Load OFAC 2019 + UN and build the index the way ScreeningRegistry does. */
export async function loadBenchIndex(
  dir = referenceDir(),
): Promise<{ entities: ScreeningEntity[]; index: ScreeningIndex; loadMs: number }> {
  const t0 = performance.now();
  const ofac = await loadOfacSdnDirectory(join(dir, 'sanctions', 'ofac-sdn-2019'));
  const un = loadUnConsolidated(await readFile(join(dir, 'sanctions', 'un', 'consolidated.xml'), 'utf8'));
  const elf = await loadLegalFormsFromDirectory(dir);
  const entities = [...(ofac?.entities ?? []), ...un.entities];
  const loadMs = performance.now() - t0;
  const index = buildIndex(entities, { legalForms: elf?.legalForms });
  return { entities, index, loadMs };
}

/** mulberry32: small seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, list: T[]): T => list[Math.floor(rand() * list.length)];

export type VariantKind = 'typo' | 'transposition' | 'reorder' | 'dropped_middle' | 'transliteration';
export const VARIANT_KINDS: VariantKind[] = [
  'typo',
  'transposition',
  'reorder',
  'dropped_middle',
  'transliteration',
];

export interface Variant {
  kind: VariantKind;
  query: string;
  original: string;
  entity: ScreeningEntity;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** Transliteration rewrites (both directions of common romanisation differences). */
const TRANSLIT: [RegExp, string][] = [
  [/mohammed/, 'muhammad'],
  [/muhammad/, 'mohamed'],
  [/mohammad/, 'muhammed'],
  [/ou/, 'u'],
  [/kh/, 'h'],
  [/ee/, 'i'],
  [/oo/, 'u'],
  [/ph/, 'f'],
  [/sh/, 'ch'],
  [/dj/, 'j'],
  [/yu/, 'iu'],
  [/ya/, 'ia'],
  [/iy/, 'y'],
  [/ei/, 'ey'],
  [/ck/, 'k'],
  [/q/, 'k'],
  [/x/, 'ks'],
  [/w/, 'v'],
  [/v/, 'w'],
  [/z/, 's'],
  [/ai/, 'ay'],
  [/y/, 'i'],
  [/i/, 'y'],
  [/u/, 'ou'],
  [/e/, 'a'],
  [/c/, 'k'],
];

/**
 * Words a variant is built from: for persons the whole name in "first middle last" order; for
 * organisations only the distinctive words (legal forms and stopwords removed), since "Limited Kerman
 * Shipping Company" is not a realistic way to misspell "Kerman Shipping Company Limited".
 */
function words(entity: ScreeningEntity, name: string, legal?: LegalForms): string[] {
  if (entity.kind !== 'person') return nameTokens(name, 'org', legal);
  return normalizeText(reorderCommaName(name)).split(' ').filter(Boolean);
}

function mutateToken(
  rand: () => number,
  w: string[],
  f: (t: string) => string | undefined,
): string[] | undefined {
  const idx = w.map((t, i) => [t, i] as const).filter(([t]) => t.length >= 5);
  const candidates = idx.length ? idx : w.map((t, i) => [t, i] as const).filter(([t]) => t.length >= 4);
  if (!candidates.length) return undefined;
  const [t, i] = pick(rand, candidates);
  const m = f(t);
  if (!m || m === t) return undefined;
  const out = [...w];
  out[i] = m;
  return out;
}

function makeVariant(rand: () => number, kind: VariantKind, w: string[]): string[] | undefined {
  switch (kind) {
    case 'typo':
      return mutateToken(rand, w, (t) => {
        const p = 1 + Math.floor(rand() * (t.length - 1));
        const op = rand();
        if (op < 0.5) return t.slice(0, p) + pick(rand, [...LETTERS]) + t.slice(p + 1); // substitution
        if (op < 0.75) return t.slice(0, p) + t.slice(p + 1); // deletion
        return t.slice(0, p) + pick(rand, [...LETTERS]) + t.slice(p); // insertion
      });
    case 'transposition':
      return mutateToken(rand, w, (t) => {
        const p = Math.floor(rand() * (t.length - 1));
        if (t[p] === t[p + 1]) return undefined;
        return t.slice(0, p) + t[p + 1] + t[p] + t.slice(p + 2);
      });
    case 'reorder': {
      if (w.length < 2) return undefined;
      // Move the last token to the front ("first middle last" → "last first middle"), the common case.
      return [w[w.length - 1], ...w.slice(0, -1)];
    }
    case 'dropped_middle': {
      if (w.length < 3) return undefined;
      const i = 1 + Math.floor(rand() * (w.length - 2));
      return [...w.slice(0, i), ...w.slice(i + 1)];
    }
    case 'transliteration': {
      const joined = w.join(' ');
      const rules = TRANSLIT.filter(([re]) => re.test(joined));
      if (!rules.length) return undefined;
      const [re, to] = pick(rand, rules);
      const out = joined.replace(re, to);
      return out === joined ? undefined : out.split(' ');
    }
  }
}

/** Generate `count` variants of listed person/organisation names (deterministic for a seed). */
export function generateVariants(
  entities: ScreeningEntity[],
  count: number,
  seed = 42,
  legal?: LegalForms,
): Variant[] {
  const rand = prng(seed);
  const pool = entities.filter((e) => e.kind === 'person' || e.kind === 'organisation');
  const out: Variant[] = [];
  let attempts = 0;
  while (out.length < count && attempts < count * 50) {
    attempts++;
    const kind = VARIANT_KINDS[out.length % VARIANT_KINDS.length];
    const e = pick(rand, pool);
    // The primary name or a strong alias written in Latin script.
    const names = [e.name, ...e.aliases.filter((a) => a.strength !== 'weak').map((a) => a.name)].filter(
      // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII check
      (n) => /^[\x00-\x7f]*$/.test(n),
    );
    if (!names.length) continue;
    const original = pick(rand, names);
    const w = words(e, original, legal);
    const variant = nameTokens(w.join(' '), e.kind === 'person' ? 'person' : 'org');
    // Need at least two meaningful tokens (single-token names are not a fuzzy-matching case).
    if (variant.length < 2 || w.join('').length < 8) continue;
    // Dropped middle names only make sense for persons.
    if (kind === 'dropped_middle' && e.kind !== 'person') continue;
    const v = makeVariant(rand, kind, w);
    if (!v) continue;
    out.push({ kind, query: v.join(' '), original, entity: e });
  }
  return out;
}

const FIRST = [
  'james',
  'mary',
  'john',
  'patricia',
  'robert',
  'jennifer',
  'michael',
  'linda',
  'william',
  'elizabeth',
  'david',
  'barbara',
  'richard',
  'susan',
  'joseph',
  'jessica',
  'thomas',
  'sarah',
  'charles',
  'karen',
  'christopher',
  'nancy',
  'daniel',
  'lisa',
  'matthew',
  'betty',
  'anthony',
  'margaret',
  'mark',
  'sandra',
  'emma',
  'olivia',
  'noah',
  'liam',
  'sophie',
  'lukas',
  'hannah',
  'felix',
  'anna',
  'paul',
  'marie',
  'pierre',
  'camille',
  'luca',
  'giulia',
  'marco',
  'francesca',
  'jan',
  'katarzyna',
  'piotr',
  'agnieszka',
  'lars',
  'ingrid',
  'sven',
  'astrid',
  'pablo',
  'lucia',
  'javier',
  'carmen',
  'diego',
  'sofia',
  'priya',
  'rahul',
  'anjali',
  'vikram',
  'wei',
  'hiroshi',
  'yuki',
  'kenji',
  'aiko',
  'chloe',
  'leon',
  'mila',
  'oscar',
  'elena',
  'tomas',
  'eva',
  'nina',
  'hugo',
  'clara',
  'jonas',
  'laura',
  'martin',
  'julia',
];
const LAST = [
  'smith',
  'johnson',
  'williams',
  'brown',
  'jones',
  'miller',
  'davis',
  'wilson',
  'anderson',
  'taylor',
  'moore',
  'jackson',
  'thompson',
  'white',
  'harris',
  'clark',
  'lewis',
  'walker',
  'muller',
  'schmidt',
  'schneider',
  'fischer',
  'weber',
  'meyer',
  'wagner',
  'becker',
  'dubois',
  'lefebvre',
  'moreau',
  'laurent',
  'rossi',
  'russo',
  'ferrari',
  'esposito',
  'bianchi',
  'kowalski',
  'nowak',
  'wisniewski',
  'jensen',
  'nielsen',
  'hansen',
  'johansson',
  'lindberg',
  'garcia',
  'fernandez',
  'lopez',
  'martinez',
  'sanchez',
  'perez',
  'gomez',
  'sharma',
  'patel',
  'gupta',
  'singh',
  'wang',
  'zhang',
  'chen',
  'liu',
  'tanaka',
  'suzuki',
  'watanabe',
  'yamamoto',
  'nguyen',
  'kovacs',
  'novak',
  'horvat',
  'petersen',
  'bakker',
  'visser',
  'smit',
  'dekker',
  'peeters',
  'janssens',
  'oliveira',
  'santos',
  'costa',
  'ferreira',
];

/** Ordinary names not literally on any list (exact normalised token set checked against the index). */
export function generateOrdinaryNames(index: ScreeningIndex, count: number, seed = 7): string[] {
  const rand = prng(seed);
  const out = new Set<string>();
  let attempts = 0;
  while (out.size < count && attempts < count * 20) {
    attempts++;
    const parts = [pick(rand, FIRST)];
    if (rand() < 0.3) parts.push(pick(rand, FIRST));
    parts.push(pick(rand, LAST));
    if (rand() < 0.15) parts.push(pick(rand, LAST));
    if (new Set(parts).size !== parts.length) continue;
    const name = parts.join(' ');
    const key = [...nameTokens(name, 'person')].sort().join(' ');
    if (index.exact.has(key)) continue;
    out.add(name);
  }
  return [...out];
}

/**
 * Names that are common among listed persons (Arabic, Hispanic, Russian, Korean) but, as full names, not
 * literally on the lists. Informational: many of their hits are genuine near-matches that a screening
 * analyst must review ("Omar Hussein" ~ "HUSSAIN, Omar"), so this is not counted as a false-positive rate.
 */
const LIST_POPULATION_FIRST = [
  'mohammed',
  'ahmed',
  'ali',
  'omar',
  'hassan',
  'fatima',
  'aisha',
  'jose',
  'juan',
  'carlos',
  'luis',
  'maria',
  'ivan',
  'sergei',
  'olga',
  'natalia',
  'dmitry',
  'min',
  'young',
  'abdul',
  'yusuf',
  'ibrahim',
  'khalid',
  'mustafa',
];
const LIST_POPULATION_LAST = [
  'hassan',
  'ali',
  'khan',
  'hussein',
  'rahman',
  'ahmadi',
  'hosseini',
  'rezaei',
  'garcia',
  'rodriguez',
  'hernandez',
  'lopez',
  'gonzalez',
  'petrov',
  'ivanov',
  'smirnov',
  'kuznetsov',
  'popov',
  'kim',
  'lee',
  'park',
  'choi',
  'abdullah',
  'mahmoud',
  'saleh',
  'nasser',
];

export function generateListPopulationNames(index: ScreeningIndex): string[] {
  const out: string[] = [];
  for (const f of LIST_POPULATION_FIRST) {
    for (const l of LIST_POPULATION_LAST) {
      if (f === l) continue;
      const name = `${f} ${l}`;
      if (index.exact.has([...nameTokens(name, 'person')].sort().join(' '))) continue;
      out.push(name);
    }
  }
  return out;
}

/** A variant with one more substitution in its longest token (two independent errors). */
function withExtraTypo(rand: () => number, query: string): string {
  const toks = query.split(' ');
  let i = 0;
  for (let k = 1; k < toks.length; k++) if (toks[k].length > toks[i].length) i = k;
  const t = toks[i];
  if (t.length < 5) return query;
  const p = 1 + Math.floor(rand() * (t.length - 2));
  toks[i] = t.slice(0, p) + pick(rand, [...LETTERS.replace(t[p], '')]) + t.slice(p + 1);
  return toks.join(' ');
}

export interface QualityReport {
  threshold: number;
  variants: number;
  recallTop3: number;
  recallByKind: Record<string, { n: number; top3: number }>;
  ordinary: number;
  falsePositiveRate: number;
  misses: { kind: string; query: string; original: string; top: string[] }[];
  falsePositives: { query: string; hit: string; score: number }[];
  /** Informational (no goal): variants with an extra substitution, recall in top 3. */
  combinedRecallTop3: number;
  /** Informational (no goal): share of list-population names (see above) with any hit. */
  listPopulationNames: number;
  listPopulationHitRate: number;
  /**
   * Informational: the list-population hits by kind (top hit): every matched query token identical to a
   * listed one (the listed name has more), a spelling variant (paired tokens with the same metaphone key,
   * the glued article aside), or a distinct name (a pair that sounds different: khalid ~ khalil).
   */
  listPopulationHitKinds: Record<PopulationHitKind, string[]>;
}

export type PopulationHitKind = 'identical' | 'variant' | 'distinct';

function populationHitKind(pairs: { query: string; listed: string }[]): PopulationHitKind {
  const key = (t: string) => doubleMetaphone(t.length >= 5 && /^(al|el)/.test(t) ? t.slice(2) : t)[0];
  let kind: PopulationHitKind = 'identical';
  for (const p of pairs) {
    if (p.query === p.listed) continue;
    if (key(p.query) !== key(p.listed)) return 'distinct';
    kind = 'variant';
  }
  return kind;
}

/**
 * The index hands out a new object per entity (it keeps them serialised), so a result is the variant's
 * source entity when its list and id are.
 */
function sameEntity(a: ScreeningEntity, b: ScreeningEntity): boolean {
  return a.source === b.source && a.id === b.id;
}

export async function runScreeningQualityBench(
  options: { variants?: number; ordinary?: number; seed?: number } = {},
): Promise<QualityReport> {
  const { entities, index } = await loadBenchIndex();
  const threshold = fuzzinessToThreshold();
  const variants = generateVariants(entities, options.variants ?? 2000, options.seed ?? 42, index.legalForms);
  const byKind: Record<string, { n: number; top3: number }> = {};
  const misses: QualityReport['misses'] = [];
  let ok = 0;
  for (const v of variants) {
    const res = search(index, { name: v.query, limit: 3 });
    const hit = res.some((r) => sameEntity(r.entity, v.entity));
    byKind[v.kind] ??= { n: 0, top3: 0 };
    byKind[v.kind].n++;
    if (hit) {
      ok++;
      byKind[v.kind].top3++;
    } else
      misses.push({
        kind: v.kind,
        query: v.query,
        original: v.original,
        top: res.map((r) => `${r.matched_name} ${r.score}`),
      });
  }
  const ordinary = generateOrdinaryNames(index, options.ordinary ?? 2000, (options.seed ?? 42) + 1);
  const falsePositives: QualityReport['falsePositives'] = [];
  for (const name of ordinary) {
    const res = search(index, { name, limit: 1 });
    if (res.length) falsePositives.push({ query: name, hit: res[0].matched_name, score: res[0].score });
  }
  for (const k of Object.values(byKind)) k.top3 = Math.round((k.top3 / k.n) * 10000) / 100;
  const rand = prng((options.seed ?? 42) + 2);
  let combinedOk = 0;
  for (const v of variants) {
    if (
      search(index, { name: withExtraTypo(rand, v.query), limit: 3 }).some((r) =>
        sameEntity(r.entity, v.entity),
      )
    )
      combinedOk++;
  }
  const population = generateListPopulationNames(index);
  let populationHits = 0;
  const kinds: QualityReport['listPopulationHitKinds'] = { identical: [], variant: [], distinct: [] };
  for (const name of population) {
    const top = search(index, { name, limit: 1 })[0];
    if (!top) continue;
    populationHits++;
    kinds[populationHitKind(top.explanation.matched_tokens)].push(
      `${name} ~ ${top.matched_name} ${top.score}`,
    );
  }
  return {
    combinedRecallTop3: Math.round((combinedOk / variants.length) * 10000) / 100,
    listPopulationNames: population.length,
    listPopulationHitRate: Math.round((populationHits / population.length) * 10000) / 100,
    listPopulationHitKinds: kinds,
    threshold,
    variants: variants.length,
    recallTop3: Math.round((ok / variants.length) * 10000) / 100,
    recallByKind: byKind,
    ordinary: ordinary.length,
    falsePositiveRate: Math.round((falsePositives.length / ordinary.length) * 10000) / 100,
    misses,
    falsePositives,
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  const verbose = process.argv.includes('--verbose');
  const r = await runScreeningQualityBench({ variants: arg('--variants'), ordinary: arg('--ordinary') });
  console.log(`threshold (default fuzziness 0.5): ${r.threshold}`);
  console.log(`listed-name variants: ${r.variants}, source entity in top 3: ${r.recallTop3}% (goal >= 95%)`);
  for (const [k, v] of Object.entries(r.recallByKind))
    console.log(`  ${k.padEnd(16)} n=${v.n} top3=${v.top3}%`);
  console.log(`ordinary names: ${r.ordinary}, with any hit: ${r.falsePositiveRate}% (goal < 1%)`);
  console.log(`informational: variants + one more substitution, top 3: ${r.combinedRecallTop3}%`);
  console.log(
    `informational: ${r.listPopulationNames} unlisted names common in list populations, with any hit: ${r.listPopulationHitRate}%`,
  );
  const k = r.listPopulationHitKinds;
  console.log(
    `  of which: same tokens ${k.identical.length}, spelling variants ${k.variant.length}, distinct names ${k.distinct.length}`,
  );
  if (verbose) {
    console.log('\nmisses:');
    for (const m of r.misses)
      console.log(`  [${m.kind}] ${m.query}  <- ${m.original}  top: ${m.top.join(' | ')}`);
    console.log('\nfalse positives:');
    for (const f of r.falsePositives) console.log(`  ${f.query} -> ${f.hit} ${f.score}`);
    console.log('\nlist-population hits on distinct names:');
    for (const d of k.distinct) console.log(`  ${d}`);
  } else {
    console.log(
      `(${r.misses.length} misses, ${r.falsePositives.length} false positives; --verbose lists them)`,
    );
  }
}
