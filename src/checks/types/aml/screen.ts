/**
 * The provider side of the aml check: what is screened for a target, and how the screening engine's
 * matches become hits. The provider is the built-in engine (`ctx.screening`), no external vendor.
 */

import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../../app-context.ts';
import { screeningSearches } from '../../../ops/metrics.ts';
import { REGISTRATION_NUMBER } from '../../../screening/engine/search.ts';
import { normalizeText, type ScreeningMatch, type ScreeningQuery } from '../../../screening/index.ts';
import type { CheckTarget } from '../../check-type.ts';
import { emptyReview } from '../../review-data.ts';
import {
  AML_HIT_LIST_TYPES,
  AML_VENDOR,
  type AmlHitOut,
  type AmlSettingsOut,
  type AmlSubjectOut,
} from './schemas.ts';

/** Hits kept per screening (best first). */
export const MAX_HITS = 25;
/**
 * Matches a screening counts (results_count, the comment's "found N"): past MAX_HITS the closest are
 * kept and the rest counted, so a check never reads as if all it found were before a person.
 */
const MAX_COUNTED = 500;
/** How long a screening job waits for lists that are still loading before it reports an error. */
const WAIT_FOR_LISTS_MS = 30_000;

/**
 * Individuals: first + middle + last name, birth date, nationalities. Companies: name, country and
 * registration number.
 */
export function subjectOf(target: CheckTarget): AmlSubjectOut {
  if (target.kind === 'individual') {
    const p = target.row;
    const gender = p.gender === 'male' || p.gender === 'female' ? p.gender : null;
    return {
      name: [p.first_name, p.middle_name, p.last_name].filter((x) => x?.trim()).join(' '),
      kind: 'person',
      birth_date: p.birth_date ?? null,
      countries: p.nationalities ?? [],
      gender,
    };
  }
  const c = target.row;
  return {
    name: c.name,
    kind: 'company',
    birth_date: null,
    countries: c.country ? [c.country] : [],
    gender: null,
    registration_number: c.registration_number?.trim() || null,
  };
}

export function queryFor(subject: AmlSubjectOut, settings: AmlSettingsOut): ScreeningQuery {
  return {
    name: subject.name,
    kind: settings.enable_entity_filter ? subject.kind : undefined,
    birth_date: subject.birth_date ?? undefined,
    countries: subject.countries.length ? subject.countries : undefined,
    gender: subject.gender ?? undefined,
    fuzziness: settings.fuzziness,
    exact_match: settings.exact_match,
    list_types: settings.list_types?.length ? settings.list_types : undefined,
    identifiers: subject.registration_number
      ? [{ type: REGISTRATION_NUMBER, value: subject.registration_number }]
      : undefined,
    limit: MAX_COUNTED,
  };
}

export type ScreenOutcome =
  | {
      ok: true;
      /** The MAX_HITS closest matches, best first: the check's hits. */
      matches: ScreeningMatch[];
      /** How many matched (up to MAX_COUNTED), and of which kinds. */
      found: number;
      resultsCount: { watchlist: number; mediacheck: number };
      listVersions: { source: string; version: string; published: string | null; origin: string | null }[];
    }
  | {
      ok: false;
      /** The operator's message: why, and how to load the lists (the 503s of the search endpoints). */
      message: string;
      /** the lists are loading: worth trying again shortly */
      loading: boolean;
      /**
       * Why: no list, loading, a failed load (the check's reader is told in their words, not the
       * operator's), no loaded list of the types asked for, or a name with nothing to screen
       * (`message` is the reader's for the last two).
       */
      reason: UnavailableReason;
    };

/** A search that could not run, counted as such (`vericase_screening_searches_total{outcome="unavailable"}`). */
type UnavailableReason = 'not_loaded' | 'loading' | 'failed' | 'list_types' | 'no_name';

function unavailable(message: string, reason: UnavailableReason = 'not_loaded'): ScreenOutcome {
  screeningSearches.inc({ outcome: 'unavailable' });
  return { ok: false, message, loading: reason === 'loading', reason };
}

/** Runs the screening with the process's current lists (waiting for a load in progress). */
export async function screenSubject(
  ctx: AppContext,
  subject: AmlSubjectOut,
  settings: AmlSettingsOut,
): Promise<ScreenOutcome> {
  // a name of punctuation alone normalises to no token: the search would find nothing, and the check
  // would be approved as screened clean when nothing was screened
  if (!normalizeText(subject.name))
    return unavailable(`the name "${subject.name}" has no letter or digit to screen`, 'no_name');
  const service = ctx.screening;
  if (!service) return unavailable('Screening is not installed in this process.');
  if (!service.available) await service.whenSettled(WAIT_FOR_LISTS_MS);
  if (!service.available) {
    const reason =
      service.state === 'loading' ? 'loading' : service.state === 'failed' ? 'failed' : 'not_loaded';
    return unavailable(service.unavailableMessage(), reason);
  }
  const snapshot = service.registry.snapshot;
  // list types asked for that no loaded list holds: "no match" would say the subject was screened
  // against them (a walk's check limited to adverse_media was approved on sanctions lists alone)
  const asked = settings.list_types ?? [];
  if (asked.length && snapshot) {
    const held = new Set(snapshot.index.listTypeSets.flatMap((set) => [...set]));
    if (!asked.some((t) => held.has(t)))
      return unavailable(
        `no loaded list holds the list types asked for (${asked.join(', ')}); the loaded lists hold ${[...held].sort().join(', ') || 'no list type'}`,
        'list_types',
      );
  }
  const all = service.search(queryFor(subject, settings));
  return {
    ok: true,
    matches: all.slice(0, MAX_HITS),
    found: all.length,
    resultsCount: resultsCountOf(all),
    listVersions: (snapshot?.lists ?? []).map((l) => ({
      source: l.source,
      version: l.version,
      published: l.published ?? null,
      // the audit trail says which file was screened: every FtM file is source "ftm"
      origin: l.origin ?? null,
    })),
  };
}

export const hitIdOf = (m: ScreeningMatch) => `${m.entity.source}:${m.entity.id}`;

const HIT_TYPES = new Set<string>(AML_HIT_LIST_TYPES);

function hitListTypes(types: string[]): AmlHitOut['list_types'] {
  const out = types.map((t) => (HIT_TYPES.has(t) ? t : 'other_bodies'));
  return [...new Set(out.length ? out : ['other_bodies'])] as AmlHitOut['list_types'];
}

export function entityOf(m: ScreeningMatch): AmlHitOut['entity'] {
  const e = m.entity;
  return {
    source: e.source,
    id: e.id,
    kind: e.kind,
    name: e.name,
    aliases: e.aliases.map((a) => a.name),
    birth_dates: e.birth_dates,
    nationalities: e.nationalities,
    countries: e.countries,
    programs: e.programs,
    identifiers: e.identifiers.map((i) => ({ type: i.type, value: i.value })),
    addresses: e.addresses,
    gender: e.gender ?? null,
    remarks: e.remarks ?? null,
    listed_on: e.listed_on ?? null,
  };
}

/** The reference's results_count: matches on watchlists and on adverse media. */
export function resultsCountOf(matches: ScreeningMatch[]): { watchlist: number; mediacheck: number } {
  let watchlist = 0;
  let mediacheck = 0;
  for (const m of matches) {
    const types = hitListTypes(m.entity.list_types);
    if (types.includes('adverse_media')) mediacheck++;
    if (types.some((t) => t !== 'adverse_media')) watchlist++;
  }
  return { watchlist, mediacheck };
}

/** Spread into each new hit and check (`{ ...EMPTY_REVIEW }`): never modified itself. */
export const EMPTY_REVIEW = Object.freeze(emptyReview());

/** A fresh hit (status potential_match) from an engine match. */
export function hitOf(
  m: ScreeningMatch,
  monitoring: { status: 'new' | 'updated' | 'removed'; at: string } | null = null,
  id: string = randomUUID(),
): AmlHitOut {
  return {
    id,
    name: m.entity.name,
    list_types: hitListTypes(m.entity.list_types),
    status: 'potential_match',
    review: { ...EMPTY_REVIEW },
    vendor: {
      name: AML_VENDOR,
      hit_id: hitIdOf(m),
      risk_id: hitIdOf(m),
      updated_by_monitoring_status: monitoring?.status ?? null,
      updated_by_monitoring_at: monitoring?.at ?? null,
    },
    score: Math.round(m.score * 1000) / 1000,
    matched_name: m.matched_name,
    explanation: m.explanation,
    entity: entityOf(m),
  };
}
