import type { CheckRow } from '../db/schema.ts';
import { iso } from '../shared/time.ts';
import type { CheckEnvelopeOut } from './envelope-schema.ts';

export function presentCheckEnvelope(c: CheckRow): CheckEnvelopeOut {
  return {
    id: c.id,
    type: c.type as CheckEnvelopeOut['type'],
    status: c.status as CheckEnvelopeOut['status'],
    subtype: c.subtype,
    ...(c.subtype?.startsWith('document_type:')
      ? { document_type_key: c.subtype.slice('document_type:'.length) }
      : {}),
    company_id: c.company_id,
    individual_id: c.individual_id,
    is_internal: c.is_internal,
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
    last_activity_at: iso(c.last_activity_at),
  };
}

/** The full check: the envelope with its type-specific `data`. */
export function presentCheck(c: CheckRow) {
  return { ...presentCheckEnvelope(c), data: c.data };
}

/** Check envelopes grouped by their target entity (company or individual id), in the rows' order. */
export function envelopesByEntity(rows: CheckRow[]): Map<string, CheckEnvelopeOut[]> {
  const map = new Map<string, CheckEnvelopeOut[]>();
  for (const r of rows) {
    const key = (r.company_id ?? r.individual_id) as string;
    const list = map.get(key);
    if (list) list.push(presentCheckEnvelope(r));
    else map.set(key, [presentCheckEnvelope(r)]);
  }
  return map;
}
