/**
 * In-memory screening index. Every entity name and alias becomes a "name record" (normalised tokens);
 * postings map keys to record numbers so a query only ever scores records that share something with it:
 *
 * - `d<token>` for every token and, for tokens of ≥ 4 chars, every single-character deletion of it
 *   (SymSpell-style: two tokens within one edit/transposition of each other share a key);
 * - `m<key>` for the double-metaphone keys (phonetic / transliteration variants: Mohammed ~ Muhammad);
 * - tokens beginning with the glued Arabic article ('al'/'el') are also posted without it.
 *
 * Exact matching uses a map from the sorted token multiset to records; identifiers have their own map.
 */
import { doubleMetaphone } from 'double-metaphone';
import { countryCode } from '../countries.ts';
import type { EntityKind, ScreeningEntity } from '../entity.ts';
import {
  DEFAULT_LEGAL_FORMS,
  type LegalForms,
  type NameVariant,
  nameTokens,
  normalizeIdentifier,
} from '../normalize.ts';

export interface IndexOptions {
  /** Legal-form designations stripped from organisation names (default: built-in list). */
  legalForms?: LegalForms;
}

export interface NameRecord {
  entity: number;
  /** Name as listed. */
  name: string;
  tokens: string[];
  weights: number[];
  totalWeight: number;
  weak: boolean;
  variant: NameVariant;
}

export interface EntityFacts {
  kind: EntityKind;
  listTypes: Set<string>;
  /** Years of birth and full dates ('yyyy' or 'yyyy-MM-dd'). */
  births: { year: number; date?: string }[];
  countries: Set<string>;
  gender?: 'male' | 'female';
}

export interface ScreeningIndex {
  entities: ScreeningEntity[];
  facts: EntityFacts[];
  records: NameRecord[];
  postings: Map<string, number[]>;
  exact: Map<string, number[]>;
  identifiers: Map<string, { entity: number; type: string; value: string }[]>;
  legalForms: LegalForms;
  /** Stats for logs/benchmarks. */
  stats: { entities: number; records: number; keys: number; postings: number; buildMs: number };
}

export const MIN_DELETE_LEN = 4;

export function tokenWeight(token: string): number {
  return Math.min(Math.max(token.length, 1), 12);
}

/** Index keys for one token (shared by index and query side). */
export function tokenKeys(token: string, out: Set<string>): void {
  const bases = [token];
  if (token.length >= 5 && (token.startsWith('al') || token.startsWith('el'))) bases.push(token.slice(2));
  for (const t of bases) {
    out.add(`d${t}`);
    if (t.length >= MIN_DELETE_LEN) {
      for (let i = 0; i < t.length; i++) out.add(`d${t.slice(0, i)}${t.slice(i + 1)}`);
    }
    if (t.length >= 2 && !/\d/.test(t)) {
      const [p, s] = doubleMetaphone(t);
      if (p) out.add(`m${p}`);
      if (s && s !== p) out.add(`m${s}`);
    }
  }
}

export function exactKey(tokens: string[]): string {
  return [...tokens].sort().join(' ');
}

export function variantOf(kind: EntityKind): NameVariant {
  return kind === 'person' ? 'person' : 'org';
}

function factsOf(e: ScreeningEntity): EntityFacts {
  const births: { year: number; date?: string }[] = [];
  for (const d of e.birth_dates) {
    const year = Number(d.slice(0, 4));
    if (!Number.isFinite(year) || year < 1000) continue;
    births.push({ year, date: /^\d{4}-\d{2}-\d{2}$/.test(d) ? d : undefined });
  }
  const countries = new Set<string>();
  for (const c of [...e.nationalities, ...e.countries]) countries.add(countryCode(c) ?? c.toUpperCase());
  return { kind: e.kind, listTypes: new Set(e.list_types), births, countries, gender: e.gender };
}

/** Build the index. Pure: the input entities are not modified. */
export function buildIndex(entities: ScreeningEntity[], options: IndexOptions = {}): ScreeningIndex {
  const started = performance.now();
  const legalForms = options.legalForms ?? DEFAULT_LEGAL_FORMS;
  const records: NameRecord[] = [];
  const postings = new Map<string, number[]>();
  const exact = new Map<string, number[]>();
  const identifiers = new Map<string, { entity: number; type: string; value: string }[]>();
  const facts: EntityFacts[] = [];
  const keys = new Set<string>();
  let postingCount = 0;

  for (let ei = 0; ei < entities.length; ei++) {
    const e = entities[ei];
    facts.push(factsOf(e));
    const variant = variantOf(e.kind);
    const seen = new Map<string, NameRecord>();
    const names: { name: string; weak: boolean }[] = [{ name: e.name, weak: false }];
    for (const a of e.aliases) names.push({ name: a.name, weak: a.strength === 'weak' });
    for (const { name, weak } of names) {
      const tokens = nameTokens(name, variant, legalForms).slice(0, 31);
      if (!tokens.length) continue;
      const key = exactKey(tokens);
      const prev = seen.get(key);
      if (prev) {
        if (prev.weak && !weak) prev.weak = false;
        continue;
      }
      const weights = tokens.map(tokenWeight);
      const rec: NameRecord = {
        entity: ei,
        name,
        tokens,
        weights,
        totalWeight: weights.reduce((a, b) => a + b, 0),
        weak,
        variant,
      };
      const ri = records.length;
      records.push(rec);
      seen.set(key, rec);
      const ex = exact.get(key);
      if (ex) ex.push(ri);
      else exact.set(key, [ri]);
      keys.clear();
      for (const t of tokens) tokenKeys(t, keys);
      for (const k of keys) {
        const list = postings.get(k);
        if (list) list.push(ri);
        else postings.set(k, [ri]);
        postingCount++;
      }
    }
    for (const id of e.identifiers) {
      const v = normalizeIdentifier(id.value);
      if (v.length < 4) continue;
      const list = identifiers.get(v);
      const hit = { entity: ei, type: id.type, value: id.value };
      if (list) {
        if (!list.some((x) => x.entity === ei)) list.push(hit);
      } else identifiers.set(v, [hit]);
    }
  }
  return {
    entities,
    facts,
    records,
    postings,
    exact,
    identifiers,
    legalForms,
    stats: {
      entities: entities.length,
      records: records.length,
      keys: postings.size,
      postings: postingCount,
      buildMs: performance.now() - started,
    },
  };
}
