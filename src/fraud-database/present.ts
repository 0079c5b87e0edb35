import type { FraudReportRow } from '../db/schema.ts';
import { iso } from '../shared/time.ts';
import type { IdentifierKind } from './identifiers.ts';

export function presentFraudReport(r: FraudReportRow) {
  return {
    id: r.id,
    individual_id: r.individual_id,
    company_id: r.company_id,
    identifier_kinds: r.identifier_kinds as IdentifierKind[],
    reason: r.reason,
    created_at: iso(r.created_at),
  };
}
