/**
 * The changes an audit entry records, as "field: before → after" lines for its detail panel: the
 * server keeps the values a decision replaced in `details.before` (docs/audit-log.md), beside the
 * decision copied from the request. A check's review decides its status through `action`.
 */
export interface AuditChange {
  field: string;
  before: string;
  after: string | null;
}

const REVIEW_STATUS: Record<string, string> = { approve: 'approved', reject: 'rejected' };

export function auditChanges(
  details: Record<string, unknown> | null | undefined,
  /** A user's id to their name and e-mail (an assignee), when the page read them. */
  userNames: Map<string, string>,
): AuditChange[] {
  const before = details?.before;
  if (!details || !before || typeof before !== 'object' || Array.isArray(before)) return [];
  const shown = (field: string, v: unknown): string => {
    if (v === null || v === undefined) return '—';
    if (field === 'assignee_id' && typeof v === 'string') return userNames.get(v) ?? v;
    return typeof v === 'string' ? v : JSON.stringify(v);
  };
  return Object.entries(before as Record<string, unknown>).map(([field, was]) => {
    const decided =
      field in details
        ? details[field]
        : field === 'status' && typeof details.action === 'string'
          ? REVIEW_STATUS[details.action]
          : undefined;
    return {
      field,
      before: shown(field, was),
      after: decided === undefined ? null : shown(field, decided),
    };
  });
}
