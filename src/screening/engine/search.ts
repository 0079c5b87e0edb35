/**
 * Query side of the screening engine: candidate generation from postings, name scoring, qualifiers.
 */
import { countryCode } from '../countries.ts';
import type { EntityKind, ScreeningEntity } from '../entity.ts';
import { parseDate } from '../lists/util.ts';
import { gluedTokenForms, nameTokens, normalizeIdentifier } from '../normalize.ts';
import { exactKey, type ScreeningIndex, tokenKeys, tokenWeight, variantOf } from './build.ts';
import { type NameScore, PENALTY, scoreTokens, TOKEN_FLOOR, type TokenPair } from './score.ts';

export interface ScreeningQuery {
  name: string;
  /** 'company' is accepted as a synonym of 'organisation'. */
  kind?: EntityKind | 'company';
  /** 'yyyy-MM-dd' or 'yyyy'. */
  birth_date?: string;
  /** Countries associated with the subject (ISO alpha-2 or names). */
  countries?: string[];
  nationality?: string;
  gender?: 'male' | 'female';
  identifiers?: { type?: string; value: string }[];
  /**
   * 0..1, default 0.5. Up to 0.5 it sets how different two spellings of a token may be and still pair
   * (0: identical only, see fuzzinessToTokenFloor) at the threshold 0.85; above 0.5 it lowers the
   * threshold (1 − 0.3 × fuzziness: 0.70 at 1).
   */
  fuzziness?: number;
  /** Only return names whose normalised token multiset equals the query's. */
  exact_match?: boolean;
  /** Keep entities having at least one of these list types ('sanction', 'pep', ...). */
  list_types?: string[];
  /** Overrides the threshold derived from fuzziness. */
  min_score?: number;
  /** Maximum number of results (default 10). */
  limit?: number;
}

export interface QualifierEffect {
  field: 'birth_date' | 'country' | 'gender' | 'alias_strength' | 'identifier';
  /** Change applied to the score (negative = penalty). 0 for agreements noted for information. */
  effect: number;
  detail: string;
}

export interface MatchExplanation {
  summary: string;
  name_score: number;
  matched_tokens: TokenPair[];
  unmatched_query_tokens: string[];
  unmatched_listed_tokens: string[];
  qualifiers: QualifierEffect[];
  identifier?: { type: string; value: string };
}

export interface ScreeningMatch {
  entity: ScreeningEntity;
  score: number;
  matched_name: string;
  explanation: MatchExplanation;
}

/** The query identifier type of a company's registration number (see REGISTRATION_TYPES). */
export const REGISTRATION_NUMBER = 'registration_number';
/**
 * The listed identifier types that are a company's registration or tax number, as the lists write them
 * (OFAC `Registration ID`, `Tax ID No.`, `Company Number`, `Commercial Registry Number`, `Chamber of
 * Commerce Number`, `Business Registration Document #`, `Certificate of Incorporation Number`, UK
 * `Business registration number`, EU `Registration Number`, national tax numbers INN/OGRN/RUC/NIT/RFC).
 */
const REGISTRATION_TYPES =
  /regist|compan|business|commerc|chamber|incorporat|enterprise|legal entity|tax|trade licen|\b(inn|ogrn|kpp|ruc|nit|rfc|cuit|nif|vat|siren|siret|ein|uen|crn)\b/i;

export const DEFAULT_FUZZINESS = 0.5;
export const DEFAULT_LIMIT = 10;

function clampFuzziness(fuzziness: number): number {
  return Math.min(1, Math.max(0, Number.isFinite(fuzziness) ? fuzziness : DEFAULT_FUZZINESS));
}

/**
 * The documented fuzziness → threshold mapping: 0.85 up to the default 0.5, then 1 − 0.3 × fuzziness
 * (0.70 at 1). A lower fuzziness does not raise the threshold: it allows fewer spelling differences
 * (fuzzinessToTokenFloor) and keeps every other tolerance (a left-out middle name, patronymic or second
 * surname). At 1.0 for fuzziness 0, any name not given in full missed: `Ramzan Kadyrov` without his
 * patronymic was approved.
 */
export function fuzzinessToThreshold(fuzziness: number = DEFAULT_FUZZINESS): number {
  const f = clampFuzziness(fuzziness);
  return f <= DEFAULT_FUZZINESS ? 0.85 : Math.round((1 - 0.3 * f) * 1000) / 1000;
}

/**
 * The lowest similarity at which two different spellings of a token still pair: TOKEN_FLOOR (0.80) from
 * the default 0.5 up, rising to 1 at fuzziness 0 (1 − 0.4 × fuzziness: 0.90 at 0.25), where only
 * identical tokens pair, besides an initial with its name and a name with its glued article.
 */
export function fuzzinessToTokenFloor(fuzziness: number = DEFAULT_FUZZINESS): number {
  const f = clampFuzziness(fuzziness);
  return f >= DEFAULT_FUZZINESS ? TOKEN_FLOOR : Math.round((1 - 0.4 * f) * 1000) / 1000;
}

/**
 * Identifiers shorter than this (normalised) are not compared: a 4-digit registration number exists in
 * every registry of the world (`4293` matched BANK SEPAH's 1.00 for a German bakery).
 */
export const MIN_IDENTIFIER_LENGTH = 6;
/**
 * The score of an identical identifier with no name match (before the other qualifiers): reported for
 * review at the default threshold, never a certain match; an identifier confirming a matched name
 * makes the score 1.
 */
export const IDENTIFIER_ONLY = 0.9;

/** Qualifier effects (see the table in docs/screening.md). */
export const QUALIFIER = {
  /** The full date of birth (yyyy-MM-dd) is one of the listed ones: the strongest fact after a name. */
  birthDateExact: 0.05,
  /** Year 1–2 off: listed birth years are often estimates (`circa`), or one of several documents. */
  birthYearOff2: -0.05,
  birthYearOff5: -0.1,
  birthYearFar: -0.2,
  birthDayDiffers: -0.05,
  country: -0.1,
  gender: -0.1,
  weakAlias: -0.05,
};

/** Ends the detail of a country that disagrees, not counted (the name or the full birth date matches exactly). */
const NOT_COUNTED = ' (not counted: the ';
const NOT_COUNTED_NAME = `${NOT_COUNTED}name matches exactly)`;
const NOT_COUNTED_BIRTH = `${NOT_COUNTED}full birth date agrees)`;

const MAX_QUERY_TOKENS = 31;

interface Candidate {
  record: number;
  detail: NameScore;
}

let maskBuf = new Uint32Array(0);

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

function normKind(kind: ScreeningQuery['kind']): EntityKind | undefined {
  if (!kind) return undefined;
  return kind === 'company' ? 'organisation' : kind;
}

/** Facts of a listed entity the qualifiers compare with the query. */
interface EntityFacts {
  /** Years of birth and full dates ('yyyy' or 'yyyy-MM-dd'). */
  births: { year: number; date?: string }[];
  countries: Set<string>;
  gender?: 'male' | 'female';
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
  return { births, countries, gender: e.gender };
}

function birthQualifier(
  entity: ScreeningEntity,
  facts: EntityFacts,
  birth: string | undefined,
): QualifierEffect | undefined {
  if (!birth) return undefined;
  if (!facts.births.length) return undefined;
  const qYear = Number(birth.slice(0, 4));
  const qDate = birth.length === 10 ? birth : undefined;
  let best = Number.POSITIVE_INFINITY;
  let dayDiffers = true;
  let fullDate = false;
  for (const b of facts.births) {
    const diff = Math.abs(b.year - qYear);
    if (diff < best) best = diff;
    if (diff === 0 && (!qDate || !b.date || b.date === qDate)) dayDiffers = false;
    if (qDate && b.date === qDate) fullDate = true;
  }
  const listed = entity.birth_dates.slice(0, 3).join(', ');
  if (fullDate)
    return { field: 'birth_date', effect: QUALIFIER.birthDateExact, detail: `full date agrees (${qDate})` };
  if (best === 0 && !dayDiffers) return { field: 'birth_date', effect: 0, detail: `agrees with ${listed}` };
  if (best === 0)
    return {
      field: 'birth_date',
      effect: QUALIFIER.birthDayDiffers,
      detail: `same year, day differs (${listed})`,
    };
  const effect =
    best <= 2 ? QUALIFIER.birthYearOff2 : best <= 5 ? QUALIFIER.birthYearOff5 : QUALIFIER.birthYearFar;
  return { field: 'birth_date', effect, detail: `query ${birth} vs listed ${listed}` };
}

/**
 * Search the index. Results are best first and at or above the threshold. A person's name written with
 * its given-name syllables apart (`Li Fang Wei`) is also searched glued (`li fangwei`) when the glued
 * word is a listed token, and each entity keeps its best match: see gluedTokenForms (the index holds the
 * glued forms of listed names written apart, so the other way needs nothing here).
 */
export function search(index: ScreeningIndex, query: ScreeningQuery): ScreeningMatch[] {
  const kind = normKind(query.kind);
  if (query.exact_match || (kind && kind !== 'person')) return searchName(index, query);
  const variants = gluedTokenForms(nameTokens(query.name ?? '', 'person').slice(0, MAX_QUERY_TOKENS)).filter(
    (form) => index.entitiesWith(form.glued) > 0,
  );
  const results = searchName(index, query);
  if (!variants.length) return results;
  const best = new Map<string, ScreeningMatch>();
  for (const m of results) best.set(`${m.entity.source}:${m.entity.id}`, m);
  for (const { tokens } of variants) {
    for (const m of searchName(index, {
      ...query,
      name: tokens.join(' '),
      kind: 'person',
      identifiers: undefined,
    })) {
      const id = `${m.entity.source}:${m.entity.id}`;
      const prev = best.get(id);
      if (!prev || m.score > prev.score) best.set(id, m);
    }
  }
  const merged = [...best.values()].sort(
    (a, b) => b.score - a.score || a.entity.name.localeCompare(b.entity.name),
  );
  const limit = query.limit ?? DEFAULT_LIMIT;
  if (merged.length > limit) merged.length = limit;
  return merged;
}

function searchName(index: ScreeningIndex, query: ScreeningQuery): ScreeningMatch[] {
  const threshold = query.min_score ?? fuzzinessToThreshold(query.fuzziness);
  const floor = fuzzinessToTokenFloor(query.fuzziness);
  const qBirth = parseDate(query.birth_date ?? undefined);
  // The one qualifier that raises a score (a full birth date that agrees): names that may reach the
  // threshold with it are scored too, so a hit does not depend on how far the name alone got.
  const nameThreshold = qBirth?.length === 10 ? threshold - QUALIFIER.birthDateExact : threshold;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const kind = normKind(query.kind);
  const listTypes = query.list_types?.length ? query.list_types : undefined;
  const name = query.name ?? '';
  const qPerson = kind && kind !== 'person' ? [] : nameTokens(name, 'person').slice(0, MAX_QUERY_TOKENS);
  const qOrg = kind === 'person' ? [] : nameTokens(name, 'org', index.legalForms).slice(0, MAX_QUERY_TOKENS);
  const qPersonW = qPerson.map(tokenWeight);
  const qOrgW = qOrg.map(tokenWeight);
  // How common each query token is among the listed names: see COMMON_TOKEN.
  const qPersonS = index.tokenStats(qPerson);
  const qOrgS = index.tokenStats(qOrg);

  const allowed = (ei: number): boolean => {
    if (kind && index.kindOf(ei) !== kind) return false;
    if (listTypes) {
      const types = index.listTypeSets[index.entityListTypes[ei]];
      if (!listTypes.some((t) => types.has(t))) return false;
    }
    return true;
  };

  const best = new Map<number, Candidate>();
  const consider = (ri: number) => {
    const ei = index.recordEntity[ri];
    if (!allowed(ei)) return;
    // Records are normalised with their entity's name variant.
    const person = variantOf(index.kindOf(ei)) === 'person';
    const q = person ? qPerson : qOrg;
    if (!q.length) return;
    const tokens = index.recordTokens(ri);
    const weights = tokens.map(tokenWeight);
    const stats = index.recordStats(ri);
    const qw = person ? qPersonW : qOrgW;
    const qs = person ? qPersonS : qOrgS;
    const s = scoreTokens(q, qw, tokens, weights, false, person, qs, stats, floor) as number;
    const weak = index.recordWeak[ri] === 1;
    const adjusted = weak ? s + QUALIFIER.weakAlias : s;
    // Qualifiers other than the full birth date only lower a name score: below nameThreshold is final.
    if (adjusted < nameThreshold) return;
    const prev = best.get(ei);
    if (prev) {
      const prevAdj = prev.detail.score + (index.recordWeak[prev.record] === 1 ? QUALIFIER.weakAlias : 0);
      if (prevAdj >= adjusted) return;
    }
    const detail = scoreTokens(q, qw, tokens, weights, true, person, qs, stats, floor) as NameScore;
    best.set(ei, { record: ri, detail });
  };

  if (query.exact_match) {
    for (const [toks, person] of [
      [qPerson, true],
      [qOrg, false],
    ] as const) {
      if (!toks.length) continue;
      for (const ri of index.exact.get(exactKey(toks)) ?? []) {
        // Only accept records normalised with the same variant as these query tokens.
        if ((variantOf(index.kindOf(index.recordEntity[ri])) === 'person') === person) consider(ri);
      }
    }
  } else {
    // Candidate generation: one bit per distinct query token, OR-ed into a per-record mask.
    const union: string[] = [];
    for (const t of [...qPerson, ...qOrg]) if (!union.includes(t)) union.push(t);
    if (union.length > MAX_QUERY_TOKENS) union.length = MAX_QUERY_TOKENS;
    if (maskBuf.length < index.recordCount) maskBuf = new Uint32Array(index.recordCount);
    const masks = maskBuf;
    const touched: number[] = [];
    // Query tokens that share an index key (mohamed / muhammad share their metaphone key) get the same
    // bit, so one listed "mohammed" does not count as two matched query tokens.
    const keySets = union.map((t) => {
      const keys = new Set<string>();
      tokenKeys(t, keys);
      return keys;
    });
    const groupOf: number[] = [];
    let groups = 0;
    for (let i = 0; i < union.length; i++) {
      let g = -1;
      for (let j = 0; j < i && g < 0; j++) {
        for (const k of keySets[i]) {
          if (keySets[j].has(k)) {
            g = groupOf[j];
            break;
          }
        }
      }
      groupOf.push(g >= 0 ? g : groups++);
    }
    // Optimistic pair weight per group: a query token can pair with a listed token of at most 12 chars
    // and of rarity 1.
    const groupWeight = new Array<number>(groups).fill(0);
    for (let i = 0; i < union.length; i++) {
      const w = (tokenWeight(union[i]) + 12) / 2;
      if (w > groupWeight[groupOf[i]]) groupWeight[groupOf[i]] = w;
    }
    // An initial ('m') pairs with any listed name of that letter ('muhammad'), which shares no index key
    // with it: initials do not count among the tokens a candidate must share, and the upper bound below
    // counts each as matched perfectly.
    let initialWeight = 0;
    const groupHasName = new Array<boolean>(groups).fill(false);
    for (let i = 0; i < union.length; i++) {
      if (union[i].length === 1) initialWeight += (1 + 12) / 2;
      else groupHasName[groupOf[i]] = true;
    }
    // What an unmatched query token costs is its length × rarity (the same weight as in scoreTokens).
    const unionStats = index.tokenStats(union);
    const unionWeight = union.map((t, i) => tokenWeight(t) * unionStats.rarity[i]);
    // A record is scored with one tokenisation only (its entity's kind): a token of the other one
    // (`bin`, dropped from a person's name, stays in the organisation tokenisation) is not a missing token
    // of that record. Per tokenisation: the groups of its tokens, how many of them are initials only, and
    // the weight of its full-name tokens.
    const variantBound = ([qPerson, qOrg] as const).map((toks) => {
      const inVariant = union.map((t) => toks.includes(t));
      let groupMask = 0;
      let totalQueryWeight = 0;
      const nameGroups = new Set<number>();
      for (let i = 0; i < union.length; i++) {
        if (!inVariant[i]) continue;
        groupMask |= 1 << groupOf[i];
        if (union[i].length > 1) {
          totalQueryWeight += unionWeight[i];
          nameGroups.add(groupOf[i]);
        }
      }
      const qn = popcount(groupMask);
      return { inVariant, groupMask, qn, initialGroups: qn - nameGroups.size, totalQueryWeight };
    });
    const { postings } = index;
    const postingStart = postings.start;
    const postingValues = postings.values;
    for (let i = 0; i < union.length; i++) {
      const bit = 1 << groupOf[i];
      for (const k of keySets[i]) {
        const key = postings.find(k);
        if (key < 0) continue;
        const end = postingStart[key + 1];
        for (let x = postingStart[key]; x < end; x++) {
          const ri = postingValues[x];
          const m = masks[ri];
          if (m === 0) touched.push(ri);
          masks[ri] = m | bit;
        }
      }
    }
    try {
      for (const ri of touched) {
        const bound = variantBound[variantOf(index.kindOf(index.recordEntity[ri])) === 'person' ? 0 : 1];
        const mask = masks[ri] & bound.groupMask;
        const hits = popcount(mask);
        masks[ri] = 0;
        const qn = bound.qn;
        const rn = index.recordTokenCount(ri);
        // A multi-token name needs at least two shared tokens with a multi-token query (initials apart).
        if (hits < Math.min(2, qn - bound.initialGroups, rn)) continue;
        // Upper bound of the name score if every query token that shares a key and every initial matched
        // perfectly and the others stayed unmatched at the cheapest (middle) penalty; qualifiers only
        // lower scores.
        if (hits < qn) {
          let hitWeight = initialWeight;
          let hitQueryWeight = 0;
          for (let i = 0; i < union.length; i++) {
            if (bound.inVariant[i] && mask & (1 << groupOf[i]) && union[i].length > 1)
              hitQueryWeight += unionWeight[i];
          }
          for (let g = 0; g < groups; g++)
            if (mask & (1 << g) && groupHasName[g]) hitWeight += groupWeight[g];
          const missing = Math.max(0, bound.totalQueryWeight - hitQueryWeight);
          if (hitWeight / (hitWeight + PENALTY.queryMiddle * missing) < nameThreshold) continue;
        }
        consider(ri);
      }
    } finally {
      // The mask buffer is shared between searches: leave it clean even if scoring threw.
      for (const ri of touched) masks[ri] = 0;
    }
  }

  const results: ScreeningMatch[] = [];
  const qCountries = new Set<string>();
  for (const c of [...(query.countries ?? []), ...(query.nationality ? [query.nationality] : [])]) {
    qCountries.add(countryCode(c) ?? c.trim().toUpperCase());
  }

  // An identical identifier confirms a matched name (score 1) or, alone, is reported at IDENTIFIER_ONLY.
  // A company's registration number is compared with the registration-like numbers of listed
  // organisations only: the same digits as a person's passport number say nothing. Numbers are issued
  // per country: one in another country's registry is another number (checked below).
  const idHits = new Map<number, { type: string; value: string }>();
  for (const id of query.identifiers ?? []) {
    const v = normalizeIdentifier(id.value ?? '');
    if (v.length < MIN_IDENTIFIER_LENGTH) continue;
    const registration = id.type === REGISTRATION_NUMBER;
    for (const hit of index.identifiers.get(v) ?? []) {
      const ei = index.identifierEntity[hit];
      if (!allowed(ei) || idHits.has(ei)) continue;
      const listed = index.entity(ei).identifiers[index.identifierIndex[hit]];
      if (registration && (index.kindOf(ei) !== 'organisation' || !REGISTRATION_TYPES.test(listed.type)))
        continue;
      idHits.set(ei, { type: listed.type, value: listed.value });
    }
  }

  const entityIds = new Set<number>([...best.keys(), ...idHits.keys()]);
  for (const ei of entityIds) {
    const cand = best.get(ei);
    const entity = index.entity(ei);
    const facts = factsOf(entity);
    const qualifiers: QualifierEffect[] = [];
    const countryOverlap = [...qCountries].some((c) => facts.countries.has(c));
    const countriesDiffer = qCountries.size > 0 && facts.countries.size > 0 && !countryOverlap;
    const idHit = countriesDiffer ? undefined : idHits.get(ei);
    if (!cand && !idHit) continue;
    const nameScore = cand ? cand.detail.score : 0;
    let score = nameScore;
    if (!cand && idHit) {
      qualifiers.push({
        field: 'identifier',
        effect: IDENTIFIER_ONLY,
        detail: `identical ${idHit.type} ${idHit.value}, the name does not match: an identifier alone is reported for review, never a certain match`,
      });
    }
    if (cand && index.recordWeak[cand.record] === 1) {
      qualifiers.push({
        field: 'alias_strength',
        effect: QUALIFIER.weakAlias,
        detail: 'matched a weak alias',
      });
    }
    const b = birthQualifier(entity, facts, qBirth);
    if (b) qualifiers.push(b);
    if (qCountries.size && facts.countries.size) {
      const versus = `query ${[...qCountries].join(', ')} vs listed ${[...facts.countries].join(', ')}`;
      // A listed country is an address, a place of birth, a branch abroad, and listed people often hold
      // a second nationality or live elsewhere: weak against a name matched exactly (an exact name and
      // birth date at fuzziness 0.3 was approved for a nationality not on the list) or a full birth date
      // that agrees (`Viktor Vekselberg`, 1957-04-14, CH was approved: 0.93 − 0.10).
      const waived = nameScore >= 1 ? NOT_COUNTED_NAME : b && b.effect > 0 ? NOT_COUNTED_BIRTH : undefined;
      qualifiers.push(
        countryOverlap
          ? { field: 'country', effect: 0, detail: 'country/nationality agrees' }
          : waived
            ? { field: 'country', effect: 0, detail: `${versus}${waived}` }
            : { field: 'country', effect: QUALIFIER.country, detail: versus },
      );
    }
    if (query.gender && facts.gender) {
      qualifiers.push(
        query.gender === facts.gender
          ? { field: 'gender', effect: 0, detail: 'gender agrees' }
          : {
              field: 'gender',
              effect: QUALIFIER.gender,
              detail: `query ${query.gender} vs listed ${facts.gender}`,
            },
      );
    }
    for (const q of qualifiers) score += q.effect;
    if (idHit && cand) {
      qualifiers.push({
        field: 'identifier',
        effect: 1 - score,
        detail: `identical ${idHit.type} ${idHit.value}, confirming the name`,
      });
      score = 1;
    }
    score = Math.max(0, Math.min(1, score));
    if (score < threshold) continue;
    const detail = cand?.detail;
    const matched = detail?.pairs ?? [];
    const parts: string[] = [];
    if (matched.length) {
      parts.push(
        `name ${nameScore.toFixed(2)}: ${matched
          .map((p) => (p.query === p.listed ? p.query : `${p.query}~${p.listed} ${p.similarity.toFixed(2)}`))
          .join(', ')}`,
      );
      if (detail!.unmatchedQuery.length) parts.push(`unmatched query: ${detail!.unmatchedQuery.join(' ')}`);
      if (detail!.unmatchedListed.length)
        parts.push(`unmatched listed: ${detail!.unmatchedListed.join(' ')}`);
    } else parts.push('name does not match');
    for (const q of qualifiers) {
      parts.push(
        `${q.field} ${q.effect === 0 ? (q.detail.includes(NOT_COUNTED) ? 'differs, not counted' : 'ok') : q.effect > 0 ? `+${q.effect.toFixed(2)}` : q.effect.toFixed(2)}`,
      );
    }
    results.push({
      entity,
      score: Math.round(score * 10000) / 10000,
      matched_name: cand ? index.recordName(cand.record, entity) : entity.name,
      explanation: {
        summary: parts.join('; '),
        name_score: Math.round(nameScore * 10000) / 10000,
        matched_tokens: matched,
        unmatched_query_tokens: detail?.unmatchedQuery ?? [],
        unmatched_listed_tokens: detail?.unmatchedListed ?? [],
        qualifiers,
        identifier: idHit,
      },
    });
  }
  results.sort((a, b) => b.score - a.score || a.entity.name.localeCompare(b.entity.name));
  if (results.length > limit) results.length = limit;
  return results;
}
