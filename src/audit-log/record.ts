import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type pino from 'pino';
import type { Db } from '../db/connect.ts';
import type { AuditLogTable } from '../db/schema.ts';
import { storableText } from '../shared/storable-text.ts';

// a client's text as PostgreSQL can store it: the entries describing hostile requests (a NUL in a
// path segment...) were the ones lost
const storable = storableText;
const text = (v: string | null | undefined) => (v == null ? null : storable(v));
const clip = (v: string | null | undefined, max: number) => (v == null ? null : storable(v.slice(0, max)));
const storableJson = (_key: string, v: unknown) => (typeof v === 'string' ? storable(v) : v);

export type AuditActorType = 'user' | 'api_key' | 'system';

/** One line of the audit log: who did what in a workspace, when and from where. */
export interface AuditEntry {
  workspaceId: string;
  actor: { type: AuditActorType; id: string | null; label: string | null };
  /** e.g. `console.login`, `console.login_failed`, `console.logout`, `case.review.create`. */
  action: string;
  method?: string | null;
  route?: string | null;
  resourceType?: string | null;
  resourceId?: string | null;
  statusCode?: number | null;
  ip?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
  details?: Record<string, unknown>;
  /** Defaults to now. */
  occurredAt?: Date;
}

/** The audit_log row of an entry, its values clipped to their bounds. */
export function auditRow(id: string, entry: AuditEntry): Insertable<AuditLogTable> {
  return {
    id,
    workspace_id: entry.workspaceId,
    // millisecond precision, as the API shows it: `occurred_at.lte` of a shown time includes it
    occurred_at: entry.occurredAt ?? new Date(),
    actor_type: entry.actor.type,
    actor_id: entry.actor.id,
    actor_label: text(entry.actor.label),
    action: entry.action,
    method: entry.method ?? null,
    route: text(entry.route),
    resource_type: entry.resourceType ?? null,
    resource_id: text(entry.resourceId),
    status_code: entry.statusCode ?? null,
    ip: clip(entry.ip, 100),
    // headers are the client's: bounded, so one request cannot store kilobytes per entry
    user_agent: clip(entry.userAgent, 512),
    request_id: clip(entry.requestId, 128),
    details: JSON.stringify(entry.details ?? {}, storableJson),
  };
}

/**
 * Writes one audit entry. Never throws: an audit write that fails is logged (to `log` when given, else
 * as a JSON line on stderr), and the request it describes is not failed for it (the write itself
 * already happened). Returns the entry's id, or null when it could not be stored.
 */
export async function recordAuditEntry(
  db: Db,
  entry: AuditEntry,
  log?: Pick<pino.BaseLogger, 'error'>,
  id: string = randomUUID(),
): Promise<string | null> {
  try {
    await db.insertInto('audit_log').values(auditRow(id, entry)).execute();
    return id;
  } catch (err) {
    const msg = 'audit entry could not be stored';
    if (log) log.error({ err, action: entry.action }, msg);
    else
      process.stderr.write(`${JSON.stringify({ level: 50, msg, action: entry.action, err: String(err) })}\n`);
    return null;
  }
}
