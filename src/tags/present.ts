import type { TagRow } from '../db/schema.ts';
import { iso } from '../shared/time.ts';

export function presentTag(t: TagRow) {
  return { id: t.id, label: t.label, created_at: iso(t.created_at) };
}
