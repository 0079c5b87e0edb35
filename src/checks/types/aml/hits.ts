/**
 * Rules on a check's hits: the check's match status, its hit list types, and how a re-screening
 * (monitoring) merges into the hits already there.
 */
import type { ScreeningMatch } from '../../../screening/index.ts';
import type { AmlDataOut, AmlHitOut } from './schemas.ts';
import { entityOf, hitIdOf, hitOf } from './screen.ts';

/** Still on the lists: monitoring did not find the listed entity again (`removed`). */
export const live = (h: AmlHitOut) => h.vendor.updated_by_monitoring_status !== 'removed';

/** Hits a reviewer still has to confirm or ignore. */
export function pendingHits(hits: AmlHitOut[]): AmlHitOut[] {
  return hits.filter((h) => h.status === 'potential_match');
}

/**
 * Over the hits still listed: any confirmed → true_positive; else any pending → potential_match;
 * else any ignored → false_positive; none → no_match.
 */
export function matchStatus(hits: AmlHitOut[]): AmlDataOut['match_status'] {
  const current = hits.filter(live);
  if (current.some((h) => h.status === 'true_positive')) return 'true_positive';
  if (current.some((h) => h.status === 'potential_match')) return 'potential_match';
  if (current.some((h) => h.status === 'false_positive')) return 'false_positive';
  return 'no_match';
}

export function hitsListTypes(hits: AmlHitOut[]): AmlDataOut['hits_list_types'] {
  const out = new Set<AmlDataOut['hits_list_types'][number]>();
  for (const h of hits.filter(live)) for (const t of h.list_types) out.add(t);
  return [...out];
}

/** The listed facts compared to tell an updated hit from an unchanged one, by the hit's field name. */
const FACTS = {
  kind: (e: AmlHitOut['entity']) => e.kind,
  name: (e: AmlHitOut['entity']) => e.name,
  aliases: (e: AmlHitOut['entity']) => [...e.aliases].sort(),
  birth_dates: (e: AmlHitOut['entity']) => [...e.birth_dates].sort(),
  nationalities: (e: AmlHitOut['entity']) => [...e.nationalities].sort(),
  countries: (e: AmlHitOut['entity']) => [...e.countries].sort(),
  gender: (e: AmlHitOut['entity']) => e.gender ?? null,
  identifiers: (e: AmlHitOut['entity']) => e.identifiers.map((i) => `${i.type}=${i.value}`).sort(),
  programs: (e: AmlHitOut['entity']) => [...e.programs].sort(),
  addresses: (e: AmlHitOut['entity']) => [...e.addresses].sort(),
} as const;

/**
 * Facts that say who the listed entity is: a change to one of them can make a hit ignored as someone
 * else the subject after all (a new alias or birth date that now fits). Programs and addresses say
 * what the entity is listed for and where: they never turn another person into the subject.
 */
const IDENTITY: ReadonlySet<string> = new Set([
  'kind',
  'name',
  'aliases',
  'birth_dates',
  'nationalities',
  'countries',
  'gender',
  'identifiers',
]);

/** The entity's fields (names as in `entity`) whose listed values differ between two versions. */
export function changedFacts(before: AmlHitOut['entity'], after: AmlHitOut['entity']): string[] {
  return Object.entries(FACTS)
    .filter(([, of]) => JSON.stringify(of(before)) !== JSON.stringify(of(after)))
    .map(([field]) => field);
}

/** A score that rose by less than this is the same match (scores are kept to three decimals). */
const SCORE_EPSILON = 0.005;

export interface MonitoringMerge {
  hits: AmlHitOut[];
  added: number;
  /** Hits marked `updated` (their listed entity changed), whether or not they are reviewed again. */
  updated: number;
  /** Of the updated hits, the decided ones that need a decision again (a false positive that now fits better). */
  reopened: number;
  removed: number;
}

/** The hit's decision, kept in `previous_reviews` when monitoring replaces it. */
function withPreviousReview(hit: AmlHitOut, at: string, reason: string): AmlHitOut['previous_reviews'] {
  const history = hit.previous_reviews ?? [];
  if (!hit.review.reviewed_at) return history.length ? history : undefined;
  return [...history, { status: hit.status, review: hit.review, replaced_at: at, reason }];
}

/**
 * Merges a re-screening into the existing hits (by `vendor.hit_id`):
 * - a match with no hit (or whose hit was removed) → new hit, potential_match, marked `new` (a removed
 *   hit's decision is kept in `previous_reviews`);
 * - a match whose listed entity changed → the hit's entity, score and explanation are refreshed and it
 *   is marked `updated` with `vendor.updated_fields`. Its decision stays, except a false positive
 *   whose identity facts changed and that now scores higher: back to potential_match, its decision kept
 *   in `previous_reviews` (`reopened`). A confirmed hit stays confirmed: it is the subject whatever the
 *   list adds about them;
 * - an unchanged match → the hit as it was (status, review, marks);
 * - a hit no longer matched → marked `removed`; a pending one becomes no_match (nothing to review),
 *   a reviewed one keeps its status and review.
 */
export function mergeRescreen(previous: AmlHitOut[], matches: ScreeningMatch[], at: string): MonitoringMerge {
  const byHitId = new Map(previous.map((h) => [h.vendor.hit_id, h]));
  const seen = new Set<string>();
  const hits: AmlHitOut[] = [];
  let added = 0;
  let updated = 0;
  let reopened = 0;
  let removed = 0;
  for (const m of matches) {
    const hitId = hitIdOf(m);
    seen.add(hitId);
    const old = byHitId.get(hitId);
    if (!old || !live(old)) {
      const fresh = hitOf(m, { status: 'new', at }, old?.id);
      const history = old ? withPreviousReview(old, at, 'listed again after its removal') : undefined;
      hits.push(history ? { ...fresh, previous_reviews: history } : fresh);
      added++;
      continue;
    }
    const fields = changedFacts(old.entity, entityOf(m));
    if (!fields.length) {
      hits.push(old);
      continue;
    }
    updated++;
    const fresh = hitOf(m, { status: 'updated', at }, old.id);
    const marked = { ...fresh, vendor: { ...fresh.vendor, updated_fields: fields } };
    const fitsBetter =
      old.status === 'false_positive' &&
      fields.some((f) => IDENTITY.has(f)) &&
      fresh.score > old.score + SCORE_EPSILON;
    if (fitsBetter) {
      reopened++;
      const reason = `the listed ${fields.filter((f) => IDENTITY.has(f)).join(', ')} changed and the match is closer (score ${old.score} → ${fresh.score})`;
      hits.push({ ...marked, previous_reviews: withPreviousReview(old, at, reason) });
      continue;
    }
    // the decision stands (or there was none yet): the listed facts are refreshed around it
    const { previous_reviews } = old;
    hits.push({
      ...marked,
      status: old.status,
      review: old.review,
      ...(previous_reviews ? { previous_reviews } : {}),
    });
  }
  for (const old of previous) {
    if (seen.has(old.vendor.hit_id)) continue;
    if (!live(old)) {
      hits.push(old);
      continue;
    }
    removed++;
    hits.push({
      ...old,
      status: old.status === 'potential_match' ? 'no_match' : old.status,
      // the fields of an earlier update are not what this mark is about
      vendor: {
        ...old.vendor,
        updated_by_monitoring_status: 'removed',
        updated_by_monitoring_at: at,
        updated_fields: undefined,
      },
    });
  }
  return { hits, added, updated, reopened, removed };
}
