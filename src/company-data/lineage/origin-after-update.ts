import { type RawBuilder, sql } from 'kysely';

/** Fields an update may give that are not entity data (they have no lineage). */
const NOT_DATA = new Set(['is_relevant', 'custom_properties']);

/**
 * The `property_origin` column after an update: every field the update gives (address keys as
 * `address.city`...) now comes from the API. Entities with no origin map (typed, never imported)
 * keep none: all their values came from the API already. One expression, so a concurrent update
 * cannot lose the other's keys.
 */
export function originAfterUpdate(input: Record<string, unknown>): RawBuilder<unknown> | null {
  const origin: Record<string, 'input'> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || NOT_DATA.has(k)) continue;
    if (k === 'address' && v && typeof v === 'object') {
      for (const [ak, av] of Object.entries(v)) if (av !== undefined) origin[`address.${ak}`] = 'input';
    } else origin[k] = 'input';
  }
  if (!Object.keys(origin).length) return null;
  return sql`case when property_origin is null then null else property_origin || ${JSON.stringify(origin)}::jsonb end`;
}
