/**
 * The decision a write carries, copied from its body into the entry's `details` so that the log
 * says what was decided, not only that something was: a role granted or withdrawn, a case approved
 * or rejected, a check's review action, an AML hit confirmed or dismissed, a risk level, an
 * assignment. Only these fields of these routes, each a choice or an id, never free text, a
 * password, a key or a secret: the log is read by every admin.
 */
const DECISION_FIELDS: [RegExp, readonly string[]][] = [
  [/^\/v1\/users$/, ['role']],
  [/^\/v1\/users\/:id$/, ['role', 'suspended']],
  [/^\/v1\/cases\/:id\/reviews$/, ['status', 'next_review_at', 'reviewed_at']],
  [/^\/v1\/checks\/[a-z_]+\/:id\/review$/, ['action', 'override']],
  [/^\/v1\/checks\/aml\/:id\/hits\/review$/, ['action', 'hit_ids']],
  [/^\/v1\/cases\/:id\/risks$/, ['level', 'score']],
  [/^\/v1\/cases\/:id$/, ['status', 'assignee_id']],
  [/^\/v1\/cases\/:id\/share-client-portal-link$/, ['business_contact_id']],
];

export function decisionOf(route: string, body: unknown): Record<string, unknown> | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const fields = DECISION_FIELDS.find(([pattern]) => pattern.test(route))?.[1];
  if (!fields) return null;
  const decided: Record<string, unknown> = {};
  for (const field of fields) {
    const value = (body as Record<string, unknown>)[field];
    if (value !== undefined) decided[field] = value;
  }
  return Object.keys(decided).length ? decided : null;
}
