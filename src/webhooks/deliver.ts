import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { webhookAttemptDuration, webhookDeliveries } from '../ops/metrics.ts';
import { contextFrom, currentTraceCarrier, inSpan, SpanKind, tracingEnabled } from '../ops/tracing.ts';
import type { WebhookTarget } from './current-target.ts';
import { type PostResult, postJson } from './http-post.ts';
import { DEFAULT_HEX_SIGNATURE_HEADER } from './schemas.ts';
import { hexSignature, signatureHeader } from './signature.ts';
import {
  automaticRetriesDone,
  MAX_AUTOMATIC_RETRIES,
  RESPONSE_BODY_CAP,
  retryCounters,
  retryDelayMs,
  webhookTuning,
} from './tuning.ts';

/**
 * A delivery claimed for one attempt, with its webhook's target as the claim read it (re-read before
 * a later attempt of the line: current-target.ts). `attempt_count` already counts this attempt.
 */
export interface ClaimedDelivery extends Omit<WebhookTarget, 'status'> {
  id: string;
  workspace_id: string;
  webhook_id: string;
  /** The case the event is about (null for an event of no case): a webhook's deliveries of one case are sent in order. */
  case_id: string | null;
  payload: string;
  attempt_count: number;
  /** Manual retries among those attempts, this one included when it is one. */
  manual_retry_count: number;
  next_attempt_type: string;
  /** The trace of the event this delivers (null with tracing off). */
  trace_context?: Record<string, string> | null;
}

export interface AttemptOutcome {
  delivery: ClaimedDelivery;
  endpoint: string;
  requestHeaders: Record<string, string>;
  result: PostResult;
  ok: boolean;
  attemptedAt: Date;
}

/** A webhook met by the scan of pending deliveries (online ones only), and whether its head is due. */
export interface WebhookHead {
  webhook_id: string;
  workspace_id: string;
  due: boolean;
}

const NO_WEBHOOK = '00000000-0000-0000-0000-000000000000';

/**
 * The webhooks that have pending deliveries, after `afterWebhook` in id order, at most `max` of
 * them: a loose index scan of `webhook_deliveries_webhook_due` (one index descent per webhook, each
 * reading the webhook's earliest pending delivery), so its cost grows with the number of webhooks
 * that have work, never with the size of their backlog. `scanned` is how many webhooks it stepped
 * over (offline ones included), `last` the last one, to continue from when the scan was cut short.
 */
export async function scanWebhookHeads(
  db: Db,
  afterWebhook: string | null,
  max: number,
): Promise<{ heads: WebhookHead[]; scanned: number; last: string | null }> {
  const { rows } = await sql<{ webhook_id: string; workspace_id: string | null; due: boolean }>`
    with recursive heads(webhook_id, next_at, depth) as (
      (select webhook_id, next_attempt_at, 1 from webhook_deliveries
       where status = 'pending' and webhook_id > cast(${afterWebhook ?? NO_WEBHOOK} as uuid)
       order by webhook_id, next_attempt_at limit 1)
      union all
      select x.webhook_id, x.next_attempt_at, h.depth + 1 from heads h
      cross join lateral (
        select webhook_id, next_attempt_at from webhook_deliveries
        where status = 'pending' and webhook_id > h.webhook_id
        order by webhook_id, next_attempt_at limit 1
      ) x
      where h.depth < ${max}
    )
    select h.webhook_id, w.workspace_id, coalesce(h.next_at <= now(), false) as due
    from heads h left join webhooks w on w.id = h.webhook_id and w.status = 'online'
    order by h.webhook_id
  `.execute(db);
  return {
    heads: rows
      .filter((r): r is WebhookHead => r.workspace_id !== null)
      .map((r) => ({ webhook_id: r.webhook_id, workspace_id: r.workspace_id, due: r.due })),
    scanned: rows.length,
    last: rows.at(-1)?.webhook_id ?? null,
  };
}

/** How long a claim (or a renewal of it) holds a delivery before another claim may take it. */
export const leaseMs = () => Math.max(webhookTuning.leaseMs, webhookTuning.timeoutMs + 5000);

/** The key of the advisory lock that takes claims one at a time across processes (PostgreSQL). */
const CLAIM_LOCK = sql`hashtext('vericase:webhook-claims')`;

/**
 * Claims, for each given webhook (still online), up to its quota of due pending deliveries in due
 * order, then emission order (`seq`) among deliveries due at the same time, skipping rows other
 * processes hold. Each webhook's rows are read through `webhook_deliveries_webhook_due`, so a claim
 * reads what it takes, not the backlog. Returned per webhook in that order.
 *
 * A case's events stay in order across worker processes: a delivery whose line (its webhook and
 * case) has a delivery `sending` under another process's claim is left for later, so only the
 * process sending a line takes more of it (and sends them after what it holds). `owner` names this
 * process's claims. With several processes on PostgreSQL (`shared`), claims are taken one at a time
 * under a transaction-level advisory lock, each reading what the one before it committed: without
 * it two concurrent claims could each take part of one line (skip locked passes over the other's
 * rows). The embedded database has one process: no lock.
 */
export async function claimFromWebhooks(
  db: Db,
  quotas: ReadonlyMap<string, number>,
  owner: string,
  shared: boolean,
): Promise<ClaimedDelivery[]> {
  if (!quotas.size) return [];
  if (!shared) return claim(db, quotas, owner);
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${CLAIM_LOCK})`.execute(trx);
    return claim(trx as unknown as Db, quotas, owner);
  });
}

async function claim(db: Db, quotas: ReadonlyMap<string, number>, owner: string): Promise<ClaimedDelivery[]> {
  const ids = [...quotas.keys()];
  const counts = ids.map((id) => quotas.get(id) ?? 0);
  const { rows } = await sql<ClaimedDelivery & { next_attempt_at: Date | string; seq: string }>`
    with picked as (
      select x.id from unnest(cast(${ids} as uuid[]), cast(${counts} as integer[])) as q(webhook_id, n)
      join webhooks w on w.id = q.webhook_id and w.status = 'online'
      cross join lateral (
        select d.id from webhook_deliveries d
        -- "next_attempt_at <= now()" spelt as a row comparison: only the per-webhook index can
        -- serve it, so the planner cannot walk the global due index (every other webhook's
        -- backlog first) filtering on webhook_id, which it otherwise prefers when rows correlate.
        -- seq breaks ties of due time (a dispatch batch shares one) in emission order, read in the
        -- index's own order (webhook_id, next_attempt_at, seq): no sort
        where d.webhook_id = q.webhook_id and d.status = 'pending'
          and (d.webhook_id, d.next_attempt_at) <= (q.webhook_id, now())
          -- not a line another process is sending (webhook_deliveries_sending_line; a webhook's
          -- events of no case are one line)
          and not exists (
            select 1 from webhook_deliveries s
            where s.webhook_id = d.webhook_id and s.status = 'sending'
              and (s.case_id = d.case_id or (s.case_id is null and d.case_id is null))
              and s.claimed_by is distinct from cast(${owner} as uuid)
          )
        order by d.webhook_id, d.next_attempt_at, d.seq
        limit q.n
        for update of d skip locked
      ) x
    ), claimed as (
      update webhook_deliveries d
      set status = 'sending', lease_until = now() + cast(${`${leaseMs()} milliseconds`} as interval),
        claimed_by = cast(${owner} as uuid),
        attempt_count = d.attempt_count + 1, last_attempt_at = now(), updated_at = now(),
        manual_retry_count = d.manual_retry_count + case when d.next_attempt_type = 'manual_retry' then 1 else 0 end
      from picked where d.id = picked.id
      returning d.id, d.workspace_id, d.webhook_id, d.case_id, d.payload, d.attempt_count, d.manual_retry_count,
        d.next_attempt_type, d.trace_context,
        d.next_attempt_at, d.seq
    )
    select c.*, w.url, w.secret, w.previous_secret, w.previous_secret_expires_at, w.signature, w.signature_header
    from claimed c join webhooks w on w.id = c.webhook_id
    -- an update's output has no order: each webhook's deliveries in queue order, as the engine sends them
    order by c.webhook_id, c.next_attempt_at, c.seq
  `.execute(db);
  return rows.map(({ next_attempt_at: _due, seq: _seq, ...d }) => d);
}

/**
 * Extends the leases of deliveries this process claimed and has not recorded an outcome for: each
 * webhook's deliveries are sent one after another (engine.ts), so one may wait in its webhook's
 * line longer than a lease before its attempt starts. A lease still running when the process dies
 * is lost as before; a delivery claimed again meanwhile (its attempt count moved on) is left alone.
 */
export async function renewLeases(db: Db, held: ReadonlyMap<string, number>): Promise<void> {
  if (!held.size) return;
  await sql`
    update webhook_deliveries d set lease_until = now() + cast(${`${leaseMs()} milliseconds`} as interval)
    from unnest(cast(${[...held.keys()]} as uuid[]), cast(${[...held.values()]} as integer[])) as h(id, n)
    where d.id = h.id and d.status = 'sending' and d.attempt_count = h.n
  `.execute(db);
}

/**
 * Gives back claimed deliveries that were never attempted (the process stops while they wait in
 * their webhook's line, or their webhook went offline meanwhile) as if they had not been claimed:
 * due again at once with their due time, attempt counts and last attempt as before, `pending_offline`
 * when their webhook is offline (resumed when it is back online, as docs/webhooks.md says), rather
 * than waiting for their lease.
 */
export async function releaseClaims(db: Db, held: ReadonlyMap<string, number>): Promise<void> {
  if (!held.size) return;
  // a delivery claimed again meanwhile (its lease ran out: its attempt count moved on) is left alone;
  // the claim counted a manual retry and stamped last_attempt_at: both undone (the log's last
  // attempt is its latest attempt row; none: the log shows the event's time, present.ts)
  await sql`
    update webhook_deliveries d
    set status = case when w.status = 'online' then 'pending' else 'pending_offline' end,
      lease_until = null, claimed_by = null,
      attempt_count = d.attempt_count - 1,
      manual_retry_count = d.manual_retry_count - case when d.next_attempt_type = 'manual_retry' then 1 else 0 end,
      last_attempt_at = (select max(a.attempted_at) from webhook_attempts a where a.delivery_id = d.id),
      updated_at = now()
    from unnest(cast(${[...held.keys()]} as uuid[]), cast(${[...held.values()]} as integer[])) as h(id, n), webhooks w
    where d.id = h.id and d.status = 'sending' and d.attempt_count = h.n and w.id = d.webhook_id
  `.execute(db);
}

/**
 * Deliveries whose claim's lease expired (their process died before recording the outcome) are due
 * again: they go back to `pending`, keeping their due time, and are claimed fairly like the others.
 * An outcome the lost process might still record no longer matches (`recordOutcomes` only updates a
 * row still `sending` the same attempt).
 */
export async function releaseExpiredLeases(db: Db): Promise<number> {
  const res = await sql`
    update webhook_deliveries set status = 'pending', lease_until = null, claimed_by = null, updated_at = now()
    where status = 'sending' and lease_until < now()
  `.execute(db);
  return Number(res.numAffectedRows ?? 0);
}

/** What the idle probe found: work now, or else when the next retry or lease falls due. */
export interface Probe {
  work: boolean;
  /** Milliseconds until the earliest pending retry or expiring lease (null: none). */
  nextInMs: number | null;
}

/**
 * Cheap idle probe: is there anything to dispatch or send, and if not, when is the next retry due
 * or the next lease lost? Each part reads the first entry of an index (the outbox's key, the
 * partial indexes of pending and of sending deliveries). Times are the database's, so the two
 * clocks need not agree.
 */
export async function probeWork(db: Db): Promise<Probe> {
  const { rows } = await sql<{
    e: boolean;
    due_ms: string | number | null;
    lease_ms: string | number | null;
  }>`
    select exists(select 1 from event_outbox order by seq limit 1) as e,
      extract(epoch from (select min(next_attempt_at) from webhook_deliveries where status = 'pending') - now()) * 1000 as due_ms,
      extract(epoch from (select min(lease_until) from webhook_deliveries where status = 'sending') - now()) * 1000 as lease_ms
  `.execute(db);
  const r = rows[0];
  const due = r?.due_ms == null ? null : Number(r.due_ms);
  // a lease is lost once it is in the past (`lease_until < now()`, as releaseExpiredLeases reads it)
  const lease = r?.lease_ms == null ? null : Number(r.lease_ms);
  const work = !!r && (r.e || (due !== null && due <= 0) || (lease !== null && lease < 0));
  const next = [due, lease].filter((n): n is number => n !== null);
  return { work, nextInMs: next.length ? Math.max(0, Math.min(...next)) : null };
}

/** Makes one attempt: fills the context's per-attempt fields, signs, POSTs. Never throws. */
export async function attempt(d: ClaimedDelivery, allowPrivate: () => boolean): Promise<AttemptOutcome> {
  const attemptedAt = new Date();
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const body = JSON.parse(d.payload) as { context: Record<string, unknown> };
  body.context.timestamp = timestamp;
  Object.assign(body.context, retryCounters(d));
  const text = JSON.stringify(body);
  const secrets = [d.secret];
  if (
    d.previous_secret &&
    d.previous_secret_expires_at &&
    new Date(d.previous_secret_expires_at).getTime() > attemptedAt.getTime()
  ) {
    secrets.push(d.previous_secret);
  }
  const msgId = `msg_${d.id}`;
  const requestHeaders: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'vericase-webhooks/1.0',
    'webhook-id': msgId,
    'webhook-timestamp': String(timestamp),
  };
  if (d.signature === 'hmac_sha256_hex') {
    requestHeaders[d.signature_header ?? DEFAULT_HEX_SIGNATURE_HEADER] = hexSignature(d.secret, text);
  } else {
    requestHeaders['webhook-signature'] = signatureHeader(secrets, msgId, timestamp, text);
  }
  // the delivery joins the trace of the request or job that made its event; the POST carries it on
  const result = await inSpan(
    'webhook delivery',
    {
      kind: SpanKind.CLIENT,
      parent: tracingEnabled() ? contextFrom(d.trace_context) : undefined,
      attributes: {
        'vericase.webhook_id': d.webhook_id,
        'vericase.delivery_id': d.id,
        'vericase.attempt': d.attempt_count,
      },
    },
    async (span) => {
      if (span) Object.assign(requestHeaders, currentTraceCarrier());
      const r = await postJson(d.url, requestHeaders, text, {
        timeoutMs: webhookTuning.timeoutMs,
        bodyCap: RESPONSE_BODY_CAP,
        allowPrivate,
      });
      span?.setAttribute('http.response.status_code', r.statusCode);
      return r;
    },
  );
  const ok = result.statusCode >= 200 && result.statusCode < 300 && !result.error;
  return { delivery: d, endpoint: d.url, requestHeaders, result, ok, attemptedAt };
}

const typeOf = (d: ClaimedDelivery) =>
  d.next_attempt_type === 'manual_retry'
    ? 'manual_retry'
    : d.attempt_count <= 1
      ? 'first_call'
      : 'automatic_retry';

/**
 * Records a batch of attempt outcomes in one transaction: the attempt log, each delivery's next
 * state (delivered, retry scheduled, or failed when automatic retries are exhausted), and each
 * webhook's failing streak, taking it offline when the rule says so.
 */
export async function recordOutcomes(db: Db, batch: AttemptOutcome[]): Promise<void> {
  if (!batch.length) return;
  const now = Date.now();
  const recorded = await db.transaction().execute(async (trx) => {
    // a delivery deleted since its claim (its webhook or workspace was deleted) has nothing left to
    // record: its attempt row would break the foreign key and lose the whole batch, other
    // workspaces' outcomes included (they would be sent again after their lease). The lock keeps
    // the others from being deleted until this commits; it is the one the update below needs, taken
    // here in id order: two processes recording outcomes of the same deliveries (one re-claimed
    // after a lost lease) took them in the update's own order and deadlocked, each batch then lost
    const { rows: live } = await sql<{ id: string }>`
      select id from webhook_deliveries where id = any(cast(${batch.map((o) => o.delivery.id)} as uuid[]))
      order by id for no key update
    `.execute(trx);
    const liveIds = new Set(live.map((r) => r.id));
    const outcomes = batch.filter((o) => liveIds.has(o.delivery.id));
    if (!outcomes.length) return;
    await trx
      .insertInto('webhook_attempts')
      .values(
        outcomes.map((o) => ({
          id: randomUUID(),
          delivery_id: o.delivery.id,
          workspace_id: o.delivery.workspace_id,
          type: typeOf(o.delivery),
          endpoint: o.endpoint,
          status_code: o.result.statusCode,
          request_headers: JSON.stringify(o.requestHeaders),
          response_headers: o.result.responseHeaders ? JSON.stringify(o.result.responseHeaders) : null,
          response_body: o.result.responseBody,
          error: o.result.error,
          duration_ms: o.result.durationMs,
          attempted_at: o.attemptedAt,
        })),
      )
      .execute();

    const updates = outcomes.map((o) => {
      const d = o.delivery;
      // the claim set last_attempt_at; the attempt may have started later, after waiting in its
      // webhook's line (engine.ts): the log shows when it was made
      const at = o.attemptedAt.toISOString();
      if (o.ok)
        return {
          id: d.id,
          n: d.attempt_count,
          status: 'delivered',
          next: null,
          code: o.result.statusCode,
          at,
        };
      // manual retries do not use up the automatic ones
      const retriesDone = automaticRetriesDone(d);
      if (retriesDone < MAX_AUTOMATIC_RETRIES) {
        const next = new Date(now + retryDelayMs(retriesDone + 1)).toISOString();
        return { id: d.id, n: d.attempt_count, status: 'pending', next, code: o.result.statusCode, at };
      }
      return { id: d.id, n: d.attempt_count, status: 'failed', next: null, code: o.result.statusCode, at };
    });
    // a row re-claimed meanwhile (lease expired) belongs to its new attempt: leave it alone
    await sql`
      update webhook_deliveries d set status = x.status, next_attempt_at = x.next,
        next_attempt_type = 'automatic_retry', last_status_code = x.code, lease_until = null,
        last_attempt_at = x.at, updated_at = now()
      from jsonb_to_recordset(cast(${JSON.stringify(updates)} as jsonb))
        as x(id uuid, n integer, status text, next timestamptz, code integer, at timestamptz)
      where d.id = x.id and d.status = 'sending' and d.attempt_count = x.n
    `.execute(trx);

    // failing streaks, in completion order: a success resets, failures after it count
    const byHook = new Map<string, AttemptOutcome[]>();
    for (const o of outcomes) {
      const list = byHook.get(o.delivery.webhook_id) ?? [];
      list.push(o);
      byHook.set(o.delivery.webhook_id, list);
    }
    // webhooks in id order too, for the same reason
    for (const [webhookId, list] of [...byHook].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      let lastOk = -1;
      list.forEach((o, i) => {
        if (o.ok) lastOk = i;
      });
      const after = list.slice(lastOk + 1);
      const firstFailAt = after[0]?.attemptedAt ?? null;
      const row =
        lastOk >= 0
          ? await trx
              .updateTable('webhooks')
              .set({
                failure_streak: after.length,
                failure_streak_started_at: firstFailAt,
                last_success_at: list[lastOk].attemptedAt,
              })
              .where('id', '=', webhookId)
              .returning(['status', 'failure_streak', 'failure_streak_started_at'])
              .executeTakeFirst()
          : await trx
              .updateTable('webhooks')
              .set({
                failure_streak: sql`failure_streak + ${after.length}`,
                failure_streak_started_at: sql`coalesce(failure_streak_started_at, ${firstFailAt})`,
              })
              .where('id', '=', webhookId)
              .returning(['status', 'failure_streak', 'failure_streak_started_at'])
              .executeTakeFirst();
      if (
        row?.status === 'online' &&
        row.failure_streak >= webhookTuning.offlineAfterFailures &&
        row.failure_streak_started_at &&
        now - new Date(row.failure_streak_started_at).getTime() >= webhookTuning.offlineMinStreakMs
      ) {
        await trx
          .updateTable('webhooks')
          .set({ status: 'offline', updated_at: sql`now()` })
          .where('id', '=', webhookId)
          .where('status', '=', 'online')
          .execute();
      }
    }
    // deliveries of webhooks now offline wait, kept, until the webhook is back online
    await sql`
      update webhook_deliveries d set status = 'pending_offline', updated_at = now()
      from webhooks w
      where w.id = d.webhook_id and w.status = 'offline' and d.status = 'pending'
        and d.webhook_id = any(cast(${[...byHook.keys()]} as uuid[]))
    `.execute(trx);
    return outcomes.map((o, i) => ({ o, status: updates[i].status }));
  });
  // counted once committed (a rolled-back batch is attempted again and counted then)
  for (const { o, status } of recorded ?? []) {
    const outcome = status === 'pending' ? 'retry_scheduled' : status;
    webhookDeliveries.inc({ outcome });
    webhookAttemptDuration.observe({ outcome }, (o.result.durationMs ?? 0) / 1000);
  }
}
