import type { FastifyRequest } from 'fastify';
import type { App } from '../app-context.ts';
import { READ_METHODS } from '../console-auth/permissions.ts';
import type { Db } from '../db/connect.ts';
import { auditAction, auditResource } from './action.ts';
import { type AuditEntry, recordAuditEntry } from './record.ts';

/** The name an API key goes by in the audit log: its name, else its prefix (cached per process). */
class KeyLabels {
  readonly #db: Db;
  readonly #cache = new Map<string, string | null>();
  constructor(db: Db) {
    this.#db = db;
  }
  async get(keyId: string): Promise<string | null> {
    if (this.#cache.has(keyId)) return this.#cache.get(keyId) ?? null;
    // a failed lookup leaves the label out (not cached): the entry is still written, by key id
    const row = await this.#db
      .selectFrom('api_keys')
      .select(['name', 'prefix'])
      .where('id', '=', keyId)
      .executeTakeFirst()
      .catch(() => null);
    if (row === null) return null;
    const label = row ? (row.name ?? row.prefix) : null;
    if (this.#cache.size > 1000) this.#cache.clear();
    this.#cache.set(keyId, label);
    return label;
  }
}

/** A created resource's response starts with its id (the schemas list `id` first): no parse needed. */
const LEADING_ID = /^\{"id":"([^"\\]{1,128})"/;

/**
 * What the entry needs from the response: the created id of a 201 and the message of an error. A 201
 * body (a whole case graph, say) is not parsed when its id leads it.
 */
function responseFacts(
  status: number,
  payload: unknown,
): { createdId: string | null; message: string | null } {
  if (status === 201 && typeof payload === 'string') {
    const lead = LEADING_ID.exec(payload);
    if (lead) return { createdId: lead[1], message: null };
  }
  if (status !== 201 && status < 400) return { createdId: null, message: null };
  const body = bodyOf(payload);
  return {
    createdId: status === 201 && typeof body?.id === 'string' ? body.id : null,
    message: status >= 400 && typeof body?.message === 'string' ? body.message : null,
  };
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

/** The IP and user agent a request came from, for an audit entry. */
export function requestOrigin(req: FastifyRequest): Pick<AuditEntry, 'ip' | 'userAgent' | 'requestId'> {
  const ua = req.headers['user-agent'];
  return {
    ip: req.ip ?? null,
    userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null,
    requestId: req.id,
  };
}

/**
 * Records every write on the instance (the /v1 scope) once its response is known: who (the key or
 * the console user), what (action from the route), on which resource, with which status, from
 * where. Refused writes are recorded too when the caller is known (a 403 for a role or a CSRF token);
 * a request with no valid credentials has no actor and is not. Reads are not recorded.
 *
 * It runs in onSend, before the response leaves: a client that got its answer finds the entry
 * (but for a 5xx, whose entry does not hold the answer back).
 */
export function registerAuditLog(app: App, db: Db): void {
  const keyLabels = new KeyLabels(db);
  // a callback hook: reads, most requests, pass through without a promise
  app.addHook('onSend', (req, reply, payload, done) => {
    if (READ_METHODS.includes(req.method)) return done(null, payload);
    const principal = req.principal;
    if (!principal) return done(null, payload);
    const route = req.routeOptions.url ?? req.url.split('?')[0];
    const status = reply.statusCode;
    const { createdId, message } = responseFacts(status, payload);
    const resource = auditResource(route, (req.params ?? {}) as Record<string, unknown>, createdId);
    const details: Record<string, unknown> = {};
    if (createdId && createdId !== resource.id) details.created_id = createdId;
    if (message !== null) details.error = message;
    const user = principal.user;
    const write = async () =>
      recordAuditEntry(
        db,
        {
          workspaceId: principal.workspaceId,
          actor: user
            ? { type: 'user', id: user.id, label: user.email }
            : {
                type: 'api_key',
                id: principal.keyId,
                label: principal.keyId ? await keyLabels.get(principal.keyId) : null,
              },
          action: auditAction(req.method, route),
          method: req.method,
          route,
          resourceType: resource.type,
          resourceId: resource.id,
          statusCode: status,
          ...requestOrigin(req),
          details,
        },
        req.log,
      );
    // a 5xx is often the database failing: its entry is attempted without holding the answer back
    if (status >= 500) {
      void write();
      return done(null, payload);
    }
    write().then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  });
}
