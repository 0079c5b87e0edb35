import type { Db } from '../db/connect.ts';
import type { ParsedList } from '../http/list-query.ts';
import { findTagsByLowerLabels } from './repository.ts';

/**
 * Tags compare case-insensitively everywhere else (adding, removing, `/v1/tags`), and a case's
 * `tags` hold each tag's own spelling: a list filtered by `tags` (any array operator) is given
 * those spellings, so `tags=vip` finds the cases tagged `VIP`. One lookup in the workspace's tags,
 * only when the query filters by tags; a value no tag has is kept as given (it matches no case).
 * The filter then stays an array comparison the cases' tags index serves.
 */
export async function withTagSpellings(db: Db, workspaceId: string, parsed: ParsedList): Promise<ParsedList> {
  const tagFilters = parsed.filters.filter((f) => f.field === 'tags');
  if (!tagFilters.length) return parsed;
  const lowers = [...new Set(tagFilters.flatMap((f) => f.values.map((v) => v.toLowerCase())))];
  const rows = await findTagsByLowerLabels(db, workspaceId, lowers);
  const spelling = new Map(rows.map((r) => [r.label.toLowerCase(), r.label]));
  for (const f of tagFilters)
    f.values = [...new Set(f.values.map((v) => spelling.get(v.toLowerCase()) ?? v))];
  return parsed;
}
