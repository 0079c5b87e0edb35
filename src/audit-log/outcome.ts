import { auditResource } from './action.ts';
import type { AuditEntry } from './record.ts';

/** The part of an audit entry that depends on how the request ended. */
export type AuditOutcome = Required<
  Pick<AuditEntry, 'statusCode' | 'resourceType' | 'resourceId' | 'details'>
>;

/**
 * The outcome part of an entry: its status, the resource (the one the first path parameter names,
 * else the created one), the created id of a nested creation, and the refusal's message.
 */
export function outcomeOf(
  route: string,
  params: Record<string, unknown>,
  status: number,
  createdId: string | null,
  message: string | null,
  /** What the write decided (decision.ts), whatever its outcome: a refusal says what was tried. */
  decision: Record<string, unknown> | null = null,
  /** The values the decision replaced, as the use case read them (noteAuditBefore). */
  before: Record<string, unknown> | null = null,
): AuditOutcome {
  const resource = auditResource(route, params, createdId);
  const details: Record<string, unknown> = { ...decision };
  if (decision && before && Object.keys(before).length) details.before = { ...before };
  if (createdId && createdId !== resource.id) details.created_id = createdId;
  if (message !== null) details.error = message;
  return { statusCode: status, resourceType: resource.type, resourceId: resource.id, details };
}

export function sameOutcome(a: AuditOutcome, b: AuditOutcome): boolean {
  return (
    a.statusCode === b.statusCode &&
    a.resourceType === b.resourceType &&
    a.resourceId === b.resourceId &&
    JSON.stringify(a.details) === JSON.stringify(b.details)
  );
}
