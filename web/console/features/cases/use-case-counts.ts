/**
 * How many cases each status has: one `limit=1` list per status read for its total (the API counts
 * exactly), all at once. Refreshed when the list's address changes (a case may have moved).
 */
import { useEffect, useState } from 'react';
import { api } from '../../api/client.ts';

type Counts = Partial<Record<'all' | 'draft' | 'open' | 'approved' | 'rejected' | 'closed', number>>;
const STATUSES = ['draft', 'open', 'approved', 'rejected', 'closed'] as const;

export function useCaseCounts(refreshKey: string): Counts {
  const [counts, setCounts] = useState<Counts>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshKey is the reason to count again
  useEffect(() => {
    let live = true;
    const one = async (status?: (typeof STATUSES)[number]) => {
      const res = await api.GET('/v1/cases', {
        params: { query: { limit: 1, ...(status ? { status } : {}) } },
      });
      return res.data?.pagination.count;
    };
    Promise.all([one(), ...STATUSES.map((s) => one(s))]).then(([all, ...each]) => {
      if (!live) return;
      setCounts({ all, ...Object.fromEntries(STATUSES.map((s, i) => [s, each[i]])) });
    });
    return () => {
      live = false;
    };
  }, [refreshKey]);
  return counts;
}
