import type { Static } from 'typebox';
import { iso } from '../shared/time.ts';
import type { DefinitionRow } from './derived-definitions.ts';
import type { CustomProperty, TargetEntity } from './schemas.ts';

type Definition = Static<typeof CustomProperty>;

/** A derived definition in the reference's shape; settings only for the types that have them. */
export function presentDefinition(r: DefinitionRow, target: TargetEntity): Definition {
  const base = {
    id: r.id,
    label: r.label,
    key: r.key,
    target_entity: target,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    // a key disappears with its last value: nothing derived is ever archived
    archived_at: null,
    type: r.type,
  };
  switch (r.type) {
    case 'numeric':
      return {
        ...base,
        settings: { format: 'number', min: null, max: null, currency_code: null },
      } as Definition;
    case 'choices':
    case 'countries':
      return { ...base, settings: { allow_multiple: r.allow_multiple } } as Definition;
    case 'text':
      return { ...base, settings: { is_multi_line: r.is_multi_line } } as Definition;
    default:
      return base as Definition;
  }
}
