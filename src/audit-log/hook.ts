import { randomUUID } from 'node:crypto';
import type { FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { App } from '../app-context.ts';
import { READ_METHODS } from '../console-auth/permissions.ts';
import type { Db } from '../db/connect.ts';
import type { Principal } from '../http/auth.ts';
import { addWriteRouteHooks } from '../http/write-route-hooks.ts';
import { type AuditNotes, addCommitCompanion, auditNotes } from '../shared/request-scope.ts';
import { auditAction } from './action.ts';
import { decisionOf } from './decision.ts';
import { type AuditOutcome, outcomeOf, sameOutcome } from './outcome.ts';
import { type AuditEntry, recordAuditEntry } from './record.ts';
import { TransactionalEntry } from './transactional-entry.ts';

/** The IP and user agent a request came from, for an audit entry. */
export function requestOrigin(req: FastifyRequest): Pick<AuditEntry, 'ip' | 'userAgent' | 'requestId'> {
  const ua = req.headers['user-agent'];
  return {
    ip: req.ip ?? null,
    userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null,
    requestId: req.id,
  };
}

/** The route pattern of a request (`/v1/cases/:id/reviews`). */
const routeOf = (req: FastifyRequest) => req.routeOptions.url ?? req.url.split('?')[0];

/** What an entry says whatever the outcome: who, what, from where. */
function requestPart(req: FastifyRequest, principal: Principal): AuditEntry {
  const user = principal.user;
  const route = routeOf(req);
  return {
    workspaceId: principal.workspaceId,
    actor: user
      ? { type: 'user', id: user.id, label: user.email }
      : { type: 'api_key', id: principal.keyId, label: principal.keyLabel },
    action: auditAction(req.method, route),
    method: req.method,
    route,
    ...requestOrigin(req),
  };
}

/** The status a route answers on success, from its response schema (201 for a POST that creates). */
function successStatus(req: FastifyRequest): number {
  const response = (req.routeOptions.schema?.response ?? {}) as Record<string, unknown>;
  const codes = Object.keys(response).filter((c) => c.startsWith('2'));
  if (req.method === 'POST' && codes.includes('201')) return 201;
  const first = codes.map((c) => (c === '2xx' ? 200 : Number(c))).sort((a, b) => a - b)[0];
  return first ?? 200;
}

/**
 * Records every write on the instance (the /v1 scope): who (the key or the console user), what
 * (action from the route), on which resource, with which status, from where. Refused writes are
 * recorded too when the caller is known (a 403 for a role or a CSRF token); a request with no valid
 * credentials has no actor and is not. Reads are not recorded.
 *
 * A write that reaches its handler has its entry written inside the first read-write transaction it
 * commits (src/db/commit-companion.ts), with the success it is about to answer: the change and its
 * record commit together. When the answer turns out otherwise (another status, a created id the use
 * case did not note), the entry is corrected before the answer leaves. A write that commits no
 * transaction, or is refused before its handler, has its entry written when its answer is known
 * (onSend): either way a client that got its answer finds the entry (but for a 5xx, whose entry does
 * not hold the answer back).
 */
export function registerAuditLog(app: App, db: Db): void {
  const entries = new WeakMap<FastifyRequest, TransactionalEntry>();
  // what the write's use case noted of the values it replaced (noteAuditBefore)
  const notes = new WeakMap<FastifyRequest, AuditNotes>();

  // after the auth hook's preHandler, so inside the request's scope
  const preHandler: preHandlerHookHandler = (req, _reply, done) => {
    const principal = req.principal;
    if (READ_METHODS.includes(req.method) || !principal) return done();
    const route = routeOf(req);
    const params = (req.params ?? {}) as Record<string, unknown>;
    const expected = successStatus(req);
    const decision = decisionOf(route, req.body);
    const noted = auditNotes();
    const entry = new TransactionalEntry(randomUUID(), requestPart(req, principal), (createdId) =>
      outcomeOf(route, params, expected, createdId, null, decision, noted?.before),
    );
    entries.set(req, entry);
    if (noted) notes.set(req, noted);
    addCommitCompanion(entry);
    done();
  };

  // a callback hook: most writes pass through without waiting for anything
  const onSend: onSendHookHandler = (req, reply, payload, done) => {
    if (READ_METHODS.includes(req.method)) return done(null, payload);
    const principal = req.principal;
    if (!principal) return done(null, payload);
    const status = reply.statusCode;
    const route = routeOf(req);
    const outcome = outcomeOf(
      route,
      (req.params ?? {}) as Record<string, unknown>,
      status,
      ...responseFacts(status, payload),
      decisionOf(route, req.body),
      notes.get(req)?.before,
    );
    const pending = entries.get(req);
    // the usual write: its entry committed with its change, as it turned out; nothing to wait for
    const committed = pending?.writtenOutcome();
    if (committed && sameOutcome(committed, outcome)) return done(null, payload);
    const write = async () => {
      const written = pending ? await pending.close() : null;
      if (pending && written) {
        if (!sameOutcome(written, outcome))
          await correctEntry(db, pending.id, principal.workspaceId, outcome, req);
        return;
      }
      // the request part was read once, before the handler, when the handler was reached
      const request = pending?.request ?? requestPart(req, principal);
      await recordAuditEntry(db, { ...request, ...outcome }, req.log, pending?.id);
    };
    // a 5xx is often the database failing: its entry is attempted without holding the answer back
    if (status >= 500) {
      void write();
      return done(null, payload);
    }
    write().then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  };

  // on write routes only: reads are not recorded
  addWriteRouteHooks(app, { preHandler, onSend });
}

/** Rewrites the outcome of an entry committed with its change when the answer differed. */
async function correctEntry(
  db: Db,
  id: string,
  workspaceId: string,
  outcome: AuditOutcome,
  req: FastifyRequest,
): Promise<void> {
  await db
    .updateTable('audit_log')
    .set({
      status_code: outcome.statusCode,
      resource_type: outcome.resourceType,
      resource_id: outcome.resourceId,
      details: JSON.stringify(outcome.details),
    })
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .execute()
    .catch((err: unknown) => req.log.error({ err, id }, 'audit entry could not be corrected'));
}

/** A created resource's response starts with its id (the schemas list `id` first): no parse needed. */
const LEADING_ID = /^\{"id":"([^"\\]{1,128})"/;

/**
 * What the entry needs from the response: the created id of a 201 and the message of an error. A 201
 * body (a whole case graph, say) is not parsed when its id leads it.
 */
function responseFacts(status: number, payload: unknown): [createdId: string | null, message: string | null] {
  if (status === 201 && typeof payload === 'string') {
    const lead = LEADING_ID.exec(payload);
    if (lead) return [lead[1], null];
  }
  if (status !== 201 && status < 400) return [null, null];
  const body = bodyOf(payload);
  return [
    status === 201 && typeof body?.id === 'string' ? body.id : null,
    status >= 400 && typeof body?.message === 'string' ? body.message : null,
  ];
}

function bodyOf(payload: unknown): Record<string, unknown> | null {
  if (typeof payload !== 'string' || !payload.startsWith('{')) return null;
  try {
    const v = JSON.parse(payload) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
