import { type Static, Type } from 'typebox';
import type { Db } from '../db/connect.ts';
import type { AuditLogRow } from '../db/schema.ts';
import { DateTime, Nullable } from '../http/common-schemas.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { iso } from '../shared/time.ts';

export const ACTOR_TYPES = ['user', 'api_key', 'system'] as const;

const HTTP_STATUSES = [
  200, 201, 202, 204, 400, 401, 403, 404, 405, 406, 408, 409, 410, 412, 413, 415, 422, 429, 500, 502, 503,
  504,
].map(String);

export const auditListSpec: ListSpec = {
  filters: {
    actor_type: { kind: 'set', values: ACTOR_TYPES },
    actor_id: { kind: 'uuid', ops: ['eq', 'in'] },
    resource_type: { kind: 'text', ops: ['eq', 'in'] },
    resource_id: { kind: 'text', ops: ['eq'] },
    action: { kind: 'text', ops: ['eq', 'in', 'like'] },
    // an integer column: a set of the statuses the service answers, so any other value is a 400 naming
    // the filter rather than a database error
    status_code: { kind: 'set', values: HTTP_STATUSES, ops: ['eq', 'in'] },
    occurred_at: { kind: 'date', ops: ['gte', 'lte', 'gt', 'lt', 'eq'] },
  },
  sort: ['occurred_at'],
  idColumn: 'id',
  defaultSort: { field: 'occurred_at', desc: true },
};

export const AuditEntryOut = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    occurred_at: DateTime,
    actor: Type.Object({
      type: Type.Enum([...ACTOR_TYPES]),
      id: Nullable(Type.String()),
      label: Nullable(Type.String({ description: "The user's e-mail or the key's name (or prefix) then" })),
    }),
    action: Type.String({
      description:
        'What was done: `console.login`, `console.login_failed`, `console.logout`, or for a /v1 write the route as `{resource}.{verb}` (e.g. `case.review.create`, `check.aml.review`, `api_key.delete`)',
    }),
    method: Nullable(Type.String()),
    route: Nullable(Type.String({ description: 'The route pattern, e.g. `/v1/cases/:id/reviews`' })),
    resource_type: Nullable(Type.String()),
    resource_id: Nullable(Type.String()),
    status_code: Nullable(Type.Integer()),
    ip: Nullable(Type.String()),
    user_agent: Nullable(Type.String()),
    request_id: Nullable(Type.String()),
    details: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'AuditLogEntry', description: 'Who did what in the workspace, when and from where' },
);

export function presentAuditEntry(r: AuditLogRow): Static<typeof AuditEntryOut> {
  return {
    id: r.id,
    occurred_at: iso(r.occurred_at),
    actor: { type: r.actor_type as (typeof ACTOR_TYPES)[number], id: r.actor_id, label: r.actor_label },
    action: r.action,
    method: r.method,
    route: r.route,
    resource_type: r.resource_type,
    resource_id: r.resource_id,
    status_code: r.status_code,
    ip: r.ip,
    user_agent: r.user_agent,
    request_id: r.request_id,
    details: (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) ?? {},
  };
}

/** GET /v1/audit-log: the workspace's entries, newest first unless `sort=occurred_at`. */
export async function listAuditLog(db: Db, workspaceId: string, query: Record<string, unknown>) {
  const parsed = parseListQuery(auditListSpec, query);
  const base = db.selectFrom('audit_log').where('workspace_id', '=', workspaceId);
  const { rows, pagination } = await fetchPage(auditListSpec, parsed, base, (qb) => qb.selectAll(), db, {
    alias: 'audit_log',
    rows: base.selectAll(),
    over: (from) => db.selectFrom(from),
  });
  return { data: (rows as AuditLogRow[]).map(presentAuditEntry), pagination };
}
