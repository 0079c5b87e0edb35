import type { RiskRow } from '../db/schema.ts';
import { iso } from '../shared/time.ts';
import type { RISK_LEVELS } from './schemas.ts';

export function presentRisk(r: RiskRow) {
  return {
    id: r.id,
    mode: r.mode as 'automatic' | 'manual',
    level: r.level as (typeof RISK_LEVELS)[number],
    comment: r.comment,
    score: r.score,
    components: r.components ?? null,
    flags: r.flags ?? null,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}
