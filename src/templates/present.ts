import type { TemplateRow } from '../db/schema.ts';
import { iso } from '../shared/time.ts';
import type { TemplateTarget } from './schemas.ts';

export function presentTemplate(t: TemplateRow) {
  return {
    id: t.id,
    name: t.name,
    key: t.key,
    description: t.description,
    case_auto_approval: t.case_auto_approval,
    checks: t.checks.map((c) => ({
      type: c.type,
      targets: c.targets as TemplateTarget[],
      settings: c.settings ?? {},
    })),
    created_at: iso(t.created_at),
    updated_at: iso(t.updated_at),
  };
}

/** The case's `template` field. */
export const templateLight = (t: Pick<TemplateRow, 'id' | 'name' | 'key'>) => ({
  id: t.id,
  name: t.name,
  key: t.key,
});
