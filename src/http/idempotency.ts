import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/connect.ts';
import { ApiError } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
}

const HEADER = 'idempotency-key';
/** A claimed key whose request never finished (crashed process) may be retried after this. */
const STALE_CLAIM_MS = 60_000;

/**
 * `Idempotency-Key` on POST: the first request claims the key, its response is stored, and a retry
 * with the same key and body gets that response again without writing anything. The same key with
 * another body is a 409, and so is a retry while the first request is still running.
 * Server errors release the key so the request can be retried.
 */
export function registerIdempotency(app: FastifyInstance, db: Db): void {
  app.decorateRequest('idempotencyKey', null);

  // the common case (not a POST, or no key) answers at once: no promise per request
  app.addHook('preHandler', (req: FastifyRequest, reply: FastifyReply, done) => {
    if (req.method !== 'POST' || !req.headers[HEADER]) return done();
    claim(req, reply).then(
      // a replayed answer was sent by claim(): the request goes no further
      (replied) => (replied ? undefined : done()),
      (err: Error) => done(err),
    );
  });

  /**
   * Claims the request's key (false), or answers with the stored response of an earlier attempt
   * (true: the answer is sent).
   */
  async function claim(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const raw = req.headers[HEADER];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key) return false;
    if (key.length > 255) throw new ApiError(400, 'Idempotency-Key must be at most 255 characters');
    // multipart bodies are streams consumed by the handler: uploads are not replayed
    if (String(req.headers['content-type'] ?? '').startsWith('multipart/')) return false;
    const workspaceId = req.principal.workspaceId;
    const hash = createHash('sha256')
      .update(`${req.method} ${req.url}\n${JSON.stringify(req.body ?? null)}`)
      .digest('hex');
    const claimed = await db
      .insertInto('idempotency_keys')
      .values({ workspace_id: workspaceId, key, request_hash: hash })
      .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (claimed) {
      req.idempotencyKey = key;
      return false;
    }
    const row = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('key', '=', key)
      .executeTakeFirstOrThrow();
    if (row.request_hash !== hash) {
      throw new ApiError(409, 'This Idempotency-Key was already used with a different request');
    }
    if (row.status_code === null) {
      if (Date.now() - new Date(row.created_at).getTime() < STALE_CLAIM_MS) {
        throw new ApiError(409, 'A request with this Idempotency-Key is still being processed');
      }
      req.idempotencyKey = key; // the first attempt died: this one takes over
      return false;
    }
    reply.header('idempotent-replayed', 'true');
    reply.status(row.status_code).type('application/json; charset=utf-8');
    reply.send(row.response_body ?? '');
    return true;
  }

  app.addHook('onSend', (req, reply, payload, done) => {
    if (!req.idempotencyKey) return done(null, payload);
    store(req, reply.statusCode, payload).then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  });

  /** Keeps the response for retries (or releases the key after a failure a retry may fix). */
  async function store(req: FastifyRequest, status: number, payload: unknown): Promise<void> {
    const key = req.idempotencyKey;
    if (!key) return;
    req.idempotencyKey = null;
    if (status >= 500 || status === 409 || status === 429) {
      await db
        .deleteFrom('idempotency_keys')
        .where('workspace_id', '=', req.principal.workspaceId)
        .where('key', '=', key)
        .execute();
    } else {
      await db
        .updateTable('idempotency_keys')
        .set({ status_code: status, response_body: typeof payload === 'string' ? payload : '' })
        .where('workspace_id', '=', req.principal.workspaceId)
        .where('key', '=', key)
        .execute();
    }
  }
}
