/**
 * Rules on a check's hits: the check's match status, its hit list types, and how a re-screening
 * (monitoring) merges into the hits already there.
 */
import type { ScreeningMatch } from '../../../screening/index.ts';
import type { AmlDataOut, AmlHitOut } from './schemas.ts';
import { EMPTY_REVIEW, entityOf, hitIdOf, hitOf } from './screen.ts';

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

/** Listed facts of an entity, compared to tell an updated hit from an unchanged one. */
function entityFacts(entity: AmlHitOut['entity']): string {
  const { source, id, kind, name, aliases, birth_dates, nationalities, countries, programs, identifiers } =
    entity;
  return JSON.stringify([
    source,
    id,
    kind,
    name,
    [...aliases].sort(),
    [...birth_dates].sort(),
    [...nationalities].sort(),
    [...countries].sort(),
    [...programs].sort(),
    identifiers.map((i) => `${i.type}=${i.value}`).sort(),
    [...entity.addresses].sort(),
  ]);
}

export interface MonitoringMerge {
  hits: AmlHitOut[];
  added: number;
  updated: number;
  removed: number;
}

/**
 * Merges a re-screening into the existing hits (by `vendor.hit_id`):
 * - a match with no hit (or whose hit was removed) → new hit, potential_match, marked `new`;
 * - a match whose listed entity changed → the hit is refreshed, back to potential_match (review
 *   cleared), marked `updated`;
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
  let removed = 0;
  for (const m of matches) {
    const hitId = hitIdOf(m);
    seen.add(hitId);
    const old = byHitId.get(hitId);
    if (!old || !live(old)) {
      hits.push(hitOf(m, { status: 'new', at }, old?.id));
      added++;
    } else if (entityFacts(old.entity) !== entityFacts(entityOf(m))) {
      hits.push({ ...hitOf(m, { status: 'updated', at }, old.id), review: { ...EMPTY_REVIEW } });
      updated++;
    } else {
      hits.push(old);
    }
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
      vendor: { ...old.vendor, updated_by_monitoring_status: 'removed', updated_by_monitoring_at: at },
    });
  }
  return { hits, added, updated, removed };
}
