import { createHash } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
} from 'fastify';
import { sql } from 'kysely';
import pgUtils from 'pg/lib/utils.js';
import type { Db } from '../db/connect.ts';
import { canonicalJson } from '../shared/canonical-json.ts';
import { addCommitCompanion, currentEventCaseId } from '../shared/request-scope.ts';
import { ApiError, badRequest, notFound } from './errors.ts';
import { addWriteRouteHooks } from './write-route-hooks.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
    /**
     * An upload's Idempotency-Key, claimed once its file is read (a multipart body is a stream the
     * handler consumes: its hash is known only then). Resolves true when an earlier attempt's answer
     * was sent instead (the handler then discards what it stored). Null without a key.
     */
    claimUploadKey: ((contentHash: string, beforeReplay: () => Promise<void>) => Promise<boolean>) | null;
  }
  interface FastifyContextConfig {
    /**
     * The route's answer holds a secret shown once (an API key, a generated password, a portal
     * link's token): an Idempotency-Key keeps that the request was made, never the answer itself.
     */
    secretAnswer?: boolean;
  }
}

/** The route options of a route whose answer holds a secret shown once (see `secretAnswer`). */
export const SECRET_ANSWER = { secretAnswer: true } as const;

const HEADER = 'idempotency-key';
/** A claimed key whose request never finished (crashed process) may be retried after this. */
const STALE_CLAIM_MS = 60_000;

/**
 * `Idempotency-Key` on POST: the first request claims the key, its response is stored, and a retry
 * with the same key and body gets that response again without writing anything. The same key with
 * another body is a 409, and so is a retry while the first request is still running.
 * Server errors release the key so the request can be retried. An answer about a case (its request
 * recorded events of that case) is not replayed once the case is deleted: 404, as for the case.
 */
export function registerIdempotency(app: FastifyInstance, db: Db, retentionHours: number): void {
  // a key older than its retention is no key: its row is dropped and the request made afresh (the
  // hourly prune may not have removed it yet: src/http/idempotency-prune.ts)
  const expiredSql =
    retentionHours > 0
      ? sql<boolean>`created_at < now() - ${sql.lit(`${retentionHours} hours`)}::interval`
      : sql<boolean>`false`;
  app.decorateRequest('idempotencyKey', null);
  app.decorateRequest('claimUploadKey', null);

  // the common case (not a POST, or no key) answers at once: no promise per request
  const preHandler: preHandlerHookHandler = (req: FastifyRequest, reply: FastifyReply, done) => {
    if (req.method !== 'POST' || req.headers[HEADER] === undefined) return done();
    claim(req, reply).then(
      // a replayed answer was sent by claim(): the request goes no further
      (replied) => (replied ? undefined : done()),
      (err: Error) => done(err),
    );
  };

  /**
   * Claims the request's key (false), or answers with the stored response of an earlier attempt
   * (true: the answer is sent).
   */
  async function claim(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const sent = sentValues(req);
    // Node joins a header sent twice into "k1, k2": one key neither client meant, which a retry
    // sending only k1 would not match
    if (new Set(sent).size > 1)
      throw badRequest(
        `Idempotency-Key was sent ${sent.length} times with different values: send it once`,
        'Idempotency-Key',
      );
    const key = sent[0];
    // sent but blank: a client whose key generator failed would otherwise share one key ('' or
    // spaces) between all its requests, each retry of another replaying the first's answer
    if (key === undefined || !key.trim())
      throw badRequest(
        'Idempotency-Key must not be blank: send a unique value per request, or no header',
        'Idempotency-Key',
      );
    if (key.length > 255)
      throw badRequest('Idempotency-Key must be at most 255 characters', 'Idempotency-Key');
    // a multipart body is a stream the handler consumes: the upload claims its key once its file
    // is read, by the file's content (a retry sends the same bytes)
    if (String(req.headers['content-type'] ?? '').startsWith('multipart/')) {
      req.claimUploadKey = (contentHash, beforeReplay) =>
        claimKey(
          req,
          reply,
          key,
          createHash('sha256').update(`${req.method} ${req.url}\n${contentHash}`).digest('hex'),
          beforeReplay,
        );
      return false;
    }
    const hash = createHash('sha256')
      // the body's meaning, not its spelling: a retry may serialise its keys in another order
      .update(`${req.method} ${req.url}\n${canonicalJson(req.body ?? null)}`)
      .digest('hex');
    return claimKey(req, reply, key, hash);
  }

  /**
   * Claims `key` for a request of this `hash` (false), or sends an earlier attempt's answer (true),
   * after `beforeReplay` (what the request made that the replay replaces, undone before the answer).
   */
  async function claimKey(
    req: FastifyRequest,
    reply: FastifyReply,
    key: string,
    hash: string,
    beforeReplay?: () => Promise<void>,
  ): Promise<boolean> {
    const workspaceId = req.principal.workspaceId;
    // a claim released meanwhile (its request failed) is claimed again
    for (let attempt = 0; ; attempt++) {
      const claimed = await db
        .insertInto('idempotency_keys')
        .values({ workspace_id: workspaceId, key, request_hash: hash })
        .onConflict((oc) => oc.columns(['workspace_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (claimed) return taken(req, workspaceId, key);
      const row = await db
        .selectFrom('idempotency_keys')
        .select(['request_hash', 'status_code', 'response_body', 'committed_at', 'case_id'])
        .select(
          sql<boolean>`created_at < now() - ${sql.lit(`${STALE_CLAIM_MS} milliseconds`)}::interval`.as(
            'stale',
          ),
        )
        .select(expiredSql.as('expired'))
        // the claim's stamp to the microsecond, as the database holds it: a Date (milliseconds)
        // never equals a stamp of now(), so a takeover that compared one never matched a real claim
        .select(sql<string>`created_at::text`.as('stamp'))
        .where('workspace_id', '=', workspaceId)
        .where('key', '=', key)
        .executeTakeFirst();
      if (!row) {
        if (attempt < 2) continue;
        throw new ApiError(409, 'A request with this Idempotency-Key is still being processed');
      }
      if (row.expired) {
        // this very row (another retry may have dropped it and claimed the key again meanwhile)
        await db
          .deleteFrom('idempotency_keys')
          .where('workspace_id', '=', workspaceId)
          .where('key', '=', key)
          .where(sql<boolean>`created_at = ${row.stamp}::timestamptz`)
          .execute();
        if (attempt < 2) continue;
        throw new ApiError(409, 'A request with this Idempotency-Key is still being processed');
      }
      if (row.request_hash !== hash) {
        throw new ApiError(409, 'This Idempotency-Key was already used with a different request');
      }
      if (row.status_code === null) {
        if (!row.stale) {
          throw new ApiError(409, 'A request with this Idempotency-Key is still being processed');
        }
        if (row.committed_at !== null) {
          // the first attempt saved its change, then died before its answer was stored: making the
          // change again would duplicate it, and its answer cannot be given
          throw new ApiError(
            409,
            'A request with this Idempotency-Key saved its change but its answer was lost (the server stopped before answering); it is not made again: read the resource to see the result',
          );
        }
        // the first attempt died before writing anything: one retry takes over, atomically
        const takenOver = await db
          .updateTable('idempotency_keys')
          .set({ created_at: sql`now()` })
          .where('workspace_id', '=', workspaceId)
          .where('key', '=', key)
          .where('status_code', 'is', null)
          .where('committed_at', 'is', null)
          .where(sql<boolean>`created_at = ${row.stamp}::timestamptz`)
          .returning('key')
          .executeTakeFirst();
        if (!takenOver)
          throw new ApiError(409, 'A request with this Idempotency-Key is still being processed');
        return taken(req, workspaceId, key);
      }
      // the answer carries the case's data: once the case is deleted (soft or erased) it is not
      // given again, and the request is not made again either
      if (row.case_id && !(await caseIsLive(workspaceId, row.case_id))) throw notFound('Case');
      // a secret shown once was not kept (store): the request is not made again either
      if (row.response_body === null)
        throw new ApiError(
          409,
          'A request with this Idempotency-Key was already made; its answer held a secret that is shown only once and is not kept: it is not made again (list what it created, or make a new request with another key)',
        );
      await beforeReplay?.();
      reply.header('idempotent-replayed', 'true');
      reply.status(row.status_code).type('application/json; charset=utf-8');
      reply.send(row.response_body ?? '');
      return true;
    }
  }

  /**
   * The request holds the key: the first transaction it commits also marks the key committed, so
   * that a retry after a crash between that commit and the stored answer never makes the change twice.
   */
  function taken(req: FastifyRequest, workspaceId: string, key: string): false {
    req.idempotencyKey = key;
    let state: 'due' | 'running' | 'done' = 'due';
    addCommitCompanion({
      take() {
        if (state !== 'due') return null;
        state = 'running';
        return `update idempotency_keys set committed_at = now() where workspace_id = ${pgUtils.escapeLiteral(workspaceId)} and key = ${pgUtils.escapeLiteral(key)} and committed_at is null`;
      },
      settle(committed) {
        if (state === 'running') state = committed ? 'done' : 'due';
      },
    });
    return false;
  }

  async function caseIsLive(workspaceId: string, caseId: string): Promise<boolean> {
    const found = await db
      .selectFrom('cases')
      .select('id')
      .where('id', '=', caseId)
      .where('workspace_id', '=', workspaceId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return found !== undefined;
  }

  const onSend: onSendHookHandler = (req, reply, payload, done) => {
    if (!req.idempotencyKey) return done(null, payload);
    store(req, reply.statusCode, payload).then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  };

  // on write routes only: a read never carries a key that counts
  addWriteRouteHooks(app, { preHandler, onSend });

  /**
   * Keeps the response for retries, or releases the key after a failure a retry may fix, unless the
   * request's change committed before it failed: a retry would make it twice.
   */
  async function store(req: FastifyRequest, status: number, payload: unknown): Promise<void> {
    const key = req.idempotencyKey;
    if (!key) return;
    req.idempotencyKey = null;
    // an answer that is no JSON text (a rendered PDF, a stream) cannot be kept to replay: the key is
    // released as after a failure, so a retry is made again (it was stored empty, replayed as nothing).
    // A 412 too: the retry of a decision read again carries a new If-Match (not part of the body the
    // key is compared on), and replaying the stale version's refusal would refuse it for ever
    if (status >= 500 || status === 409 || status === 412 || status === 429 || typeof payload !== 'string') {
      await db
        .deleteFrom('idempotency_keys')
        .where('workspace_id', '=', req.principal.workspaceId)
        .where('key', '=', key)
        .where('committed_at', 'is', null)
        .execute();
    } else {
      // a failure (4xx) holds no secret: kept as any answer
      const secret = status < 300 && req.routeOptions.config.secretAnswer === true;
      await db
        .updateTable('idempotency_keys')
        .set({
          status_code: status,
          response_body: secret ? null : payload,
          case_id: currentEventCaseId(),
        })
        .where('workspace_id', '=', req.principal.workspaceId)
        .where('key', '=', key)
        .execute();
    }
  }
}

/** Each value of the Idempotency-Key header as sent (its raw occurrences, in order). */
function sentValues(req: FastifyRequest): string[] {
  const raw = req.raw.rawHeaders;
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i].toLowerCase() === HEADER) values.push(raw[i + 1]);
  return values;
}
