import type { ListVersion } from '../engine/registry.ts';
import type { ScreeningMatch } from '../engine/search.ts';

/** A search result as the API shows it. `id` is `<list source>:<entity id on that list>`. */
export function presentMatch(m: ScreeningMatch) {
  const e = m.entity;
  return {
    id: `${e.source}:${e.id}`,
    name: e.name,
    matched_name: m.matched_name,
    aliases: e.aliases.map((a) => a.name),
    kind: e.kind,
    score: Math.round(m.score * 1000) / 1000,
    list_types: e.list_types,
    lists: [e.source],
    programs: e.programs,
    birth_dates: e.birth_dates,
    countries: [...new Set([...e.nationalities, ...e.countries])],
    remarks: e.remarks ?? null,
    listed_on: e.listed_on ?? null,
    explanation: m.explanation,
  };
}

/** A loaded list version as the API shows it and as the list-load log records it. */
export function presentListVersion(v: ListVersion) {
  return {
    source: v.source,
    version: v.version,
    published: v.published ?? null,
    origin: v.origin ?? null,
    entities: v.entities,
    malformed: v.malformed,
    errors: v.errors,
  };
}
