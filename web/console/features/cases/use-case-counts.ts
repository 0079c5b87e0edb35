/**
 * How many cases each status has, for the list's filters (GET /v1/case-counts: one grouped count).
 * Refreshed when the list's address changes (a filter changed, or a case may have moved).
 */
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';
import type { paths } from '../../api/schema';

type Counts = Partial<paths['/v1/case-counts']['get']['responses'][200]['content']['application/json']>;
type CountQuery = NonNullable<paths['/v1/case-counts']['get']['parameters']['query']>;

export function useCaseCounts(query: CountQuery, refreshKey: string): Counts {
  const [counts, setCounts] = useState<Counts>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey stands for the query
  useEffect(() => {
    let live = true;
    api.GET('/v1/case-counts', { params: { query } }).then((res) => {
      if (live && res.data) setCounts(res.data);
    });
    return () => {
      live = false;
    };
  }, [refreshKey]);
  return counts;
}
