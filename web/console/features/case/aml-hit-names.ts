/**
 * The listed names of the AML hits the timeline's hit decisions were about (`*__confirmed__aml_hit`
 * and `*__ignored__aml_hit` carry `context.aml_hit_ids`): each screening shown is read once
 * (GET /v1/checks/aml/{id}), its hits by id. A check that cannot be read names none; the timeline
 * then counts the hits instead.
 */
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client.ts';
import type { ActivityOut } from './types.ts';

/** The hit ids an activity decided on, in its order (empty when it is no hit decision). */
export function decidedHitIds(a: ActivityOut): string[] {
  const ids = (a.context as { aml_hit_ids?: string }).aml_hit_ids;
  return ids ? ids.split(',').filter(Boolean) : [];
}

/** Hit id → listed name, for the screenings of the activities given (filled in as they are read). */
export function useAmlHitNames(items: ActivityOut[]): ReadonlyMap<string, string> {
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  const asked = useRef(new Set<string>());
  useEffect(() => {
    const checks = new Set(
      items
        .filter((a) => decidedHitIds(a).length && a.context.check?.id)
        .map((a) => a.context.check?.id as string),
    );
    for (const id of checks) {
      if (asked.current.has(id)) continue;
      asked.current.add(id);
      void api.GET('/v1/checks/aml/{id}', { params: { path: { id } } }).then((res) => {
        const hits = res.data?.data?.hits ?? [];
        if (!hits.length) return;
        setNames((prev) => new Map([...prev, ...hits.map((h) => [h.id, h.name] as [string, string])]));
      });
    }
  }, [items]);
  return names;
}
