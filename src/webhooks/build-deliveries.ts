import { randomUUID } from 'node:crypto';
import { type Insertable, sql } from 'kysely';
import { presentCase } from '../cases/present.ts';
import type { Db } from '../db/connect.ts';
import type { CaseRow, WebhookDeliveriesTable, WebhookRow } from '../db/schema.ts';
import { deliveredName, subscribes } from '../events/catalog.ts';
import { DETAILED_CASE_EVENTS, detailedParts } from './detailed-case.ts';

/** An outbox row as the dispatcher reads it. */
export interface OutboxEvent {
  id: string;
  workspace_id: string;
  case_id: string | null;
  type: string;
  sub_event: string | null;
  payload: Record<string, unknown>;
  created_at: Date | string;
  trace_context?: Record<string, string> | null;
}

/** A delivery row as the dispatcher writes it (the table's insert type, the columns it sets). */
export type NewDelivery = Pick<
  Insertable<WebhookDeliveriesTable>,
  | 'id'
  | 'workspace_id'
  | 'webhook_id'
  | 'event_id'
  | 'event'
  | 'case_id'
  | 'company_id'
  | 'individual_id'
  | 'payload'
  | 'status'
  | 'next_attempt_at'
  | 'event_created_at'
  | 'trace_context'
>;

type Entity = Record<string, unknown> | undefined;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The company / individual an event is about (for the log filters and the check context). */
function entityIds(e: OutboxEvent): { company_id: string | null; individual_id: string | null } {
  const p = e.payload;
  const company = p.company as Entity;
  const individual = p.individual as Entity;
  const check = p.check as Entity;
  const order = p.document_order as Entity;
  return {
    company_id: str(company?.id) ?? str(check?.company_id) ?? str(order?.company_id) ?? null,
    individual_id: str(individual?.id) ?? str(check?.individual_id) ?? null,
  };
}

/**
 * The deliveries of a batch of events to the given webhooks (already restricted to the events'
 * workspaces by the caller; checked again here). Each body is fixed now: `{event, sub_event?,
 * context, <entity>...}`; only the context's timestamp and retry counters change per attempt.
 */
export async function buildDeliveries(
  trx: Db,
  events: OutboxEvent[],
  webhooks: WebhookRow[],
  now = new Date(),
): Promise<NewDelivery[]> {
  const byWorkspace = new Map<string, WebhookRow[]>();
  for (const w of webhooks) {
    const list = byWorkspace.get(w.workspace_id) ?? [];
    list.push(w);
    byWorkspace.set(w.workspace_id, list);
  }
  const matches: { e: OutboxEvent; hooks: WebhookRow[] }[] = [];
  for (const e of events) {
    const name = deliveredName(e.type, e.sub_event);
    const hooks = (byWorkspace.get(e.workspace_id) ?? []).filter(
      (w) => w.workspace_id === e.workspace_id && subscribes(w.events, name),
    );
    if (hooks.length) matches.push({ e, hooks });
  }
  if (!matches.length) return [];

  const workspaceIds = [...new Set(matches.map((m) => m.e.workspace_id))];
  const caseIds = [...new Set(matches.map((m) => m.e.case_id).filter((v): v is string => !!v))];
  const ids = matches.map((m) => ({ m, ...entityIds(m.e) }));
  const isCheck = (e: OutboxEvent) => e.type.startsWith('Check.');
  const individualIds = [
    ...new Set(ids.filter((x) => isCheck(x.m.e) && x.individual_id).map((x) => x.individual_id as string)),
  ];
  const companyIds = [
    ...new Set(ids.filter((x) => isCheck(x.m.e) && x.company_id).map((x) => x.company_id as string)),
  ];

  const [workspaces, cases, individuals, companies] = await Promise.all([
    trx.selectFrom('workspaces').select(['id', 'name']).where('id', 'in', workspaceIds).execute(),
    caseIds.length
      ? trx.selectFrom('cases').selectAll().where('id', 'in', caseIds).execute()
      : Promise.resolve([] as CaseRow[]),
    individualIds.length
      ? trx
          .selectFrom('individuals')
          .select(['id', 'workspace_id', 'first_name', 'last_name'])
          .where('id', 'in', individualIds)
          .execute()
      : Promise.resolve([]),
    companyIds.length
      ? trx
          .selectFrom('companies')
          .select(['id', 'workspace_id', 'name', 'country'])
          .where('id', 'in', companyIds)
          .execute()
      : Promise.resolve([]),
  ]);
  const wsName = new Map(workspaces.map((w) => [w.id, w.name]));
  const caseById = new Map(cases.map((c) => [c.id, c]));
  // the context's case names the portal it was shared through (the reference's NestedClientPortal)
  const portalIds = [...new Set(cases.map((c) => c.client_portal_id).filter((v): v is string => !!v))];
  const portals = new Map(
    (portalIds.length
      ? await trx.selectFrom('client_portals').select(['id', 'name']).where('id', 'in', portalIds).execute()
      : []
    ).map((p) => [p.id, p]),
  );
  const nestedPortal = (row: CaseRow | undefined) => {
    const p = row?.client_portal_id ? portals.get(row.client_portal_id) : undefined;
    return p ? { id: p.id, name: p.name, type: 'KYB' } : null;
  };
  // Case events carry the detailed case, as the reference's do: the case as the change left it,
  // with its companies, individuals (and their checks) and assignee as they are now
  const detailedOf = (e: OutboxEvent) => {
    const row = e.case_id ? caseById.get(e.case_id) : undefined;
    const snapshot = e.payload.case as Entity;
    return DETAILED_CASE_EVENTS.has(deliveredName(e.type, e.sub_event).event) &&
      snapshot &&
      row?.workspace_id === e.workspace_id
      ? { row, assigneeId: str(snapshot.assignee_id) }
      : null;
  };
  const toDetail = new Map<string, string | null>();
  const detailRows = new Map<string, CaseRow>();
  for (const m of matches) {
    const d = detailedOf(m.e);
    if (!d) continue;
    detailRows.set(d.row.id, d.row);
    toDetail.set(d.row.id, d.assigneeId);
  }
  const parts = await detailedParts(trx, [...detailRows.values()], toDetail);
  const indById = new Map(individuals.map((i) => [i.id, i]));
  const coById = new Map(companies.map((c) => [c.id, c]));

  const out: NewDelivery[] = [];
  for (const { m, company_id, individual_id } of ids) {
    const e = m.e;
    const name = deliveredName(e.type, e.sub_event);
    const context: Record<string, unknown> = {
      timestamp: 0,
      event_id: e.id,
      retry_count: 0,
      remaining_retry_count: 0,
      workspace: { id: e.workspace_id, name: wsName.get(e.workspace_id) ?? '' },
    };
    if (e.case_id) {
      const row = caseById.get(e.case_id);
      // the case as it is now; a case deleted since (or permanently): the event's own copy
      const current =
        row && row.workspace_id === e.workspace_id
          ? presentCase(row)
          : ((e.payload.case as Record<string, unknown> | undefined) ?? null);
      const live = row && row.workspace_id === e.workspace_id ? row : undefined;
      context.case = current ? { ...current, client_portal: nestedPortal(live) } : null;
    }
    if (isCheck(e)) {
      const ind = individual_id ? indById.get(individual_id) : undefined;
      const co = company_id ? coById.get(company_id) : undefined;
      context.individual =
        ind && ind.workspace_id === e.workspace_id
          ? { id: ind.id, first_name: ind.first_name, last_name: ind.last_name }
          : null;
      context.company =
        co && co.workspace_id === e.workspace_id ? { id: co.id, name: co.name, country: co.country } : null;
    }
    if (e.type.startsWith('NoteComment.')) {
      // the reference names the commented note in the context: its id and author
      const note = e.payload.note as { id?: unknown; author?: unknown } | undefined;
      context.note = note ? { id: note.id, author: note.author ?? null } : null;
    }
    const detail = detailedOf(e) ? parts.get(e.case_id as string) : undefined;
    const body = {
      event: name.event,
      ...(name.sub_event ? { sub_event: name.sub_event } : {}),
      context,
      ...e.payload,
      ...(detail ? { case: { ...(e.payload.case as Record<string, unknown>), ...detail } } : {}),
    };
    const payload = JSON.stringify(body);
    for (const w of m.hooks) {
      out.push({
        id: randomUUID(),
        workspace_id: e.workspace_id,
        webhook_id: w.id,
        event_id: e.id,
        event: name.sub_event ?? name.event,
        case_id: e.case_id,
        company_id,
        individual_id,
        payload,
        status: w.status === 'online' ? 'pending' : 'pending_offline',
        next_attempt_at: now,
        event_created_at: e.created_at,
        trace_context: e.trace_context ? JSON.stringify(e.trace_context) : null,
      });
    }
  }
  return out;
}

export async function insertDeliveries(trx: Db, rows: NewDelivery[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await trx
      .insertInto('webhook_deliveries')
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/** Most events dispatched in one turn. */
export const DISPATCH_BATCH = 500;

/**
 * One dispatch step: takes up to `limit` events off the outbox in `seq` order (skipping rows another
 * process holds), fans them out to the subscribed webhooks of their own workspace, and deletes their
 * outbox rows, all in one transaction: a crash leaves them in the outbox. An event's payload is read
 * only when its workspace has a webhook. Returns the number of events handled.
 */
export async function dispatchEvents(
  db: Db,
  limit = DISPATCH_BATCH,
): Promise<{ events: number; deliveries: number }> {
  return db.transaction().execute(async (trx) => {
    const { rows: taken } = await sql<{ seq: string; workspace_id: string }>`
      delete from event_outbox where seq in (
        select seq from event_outbox order by seq limit ${limit} for update skip locked
      ) returning seq, workspace_id
    `.execute(trx);
    if (!taken.length) return { events: 0, deliveries: 0 };
    // FOR SHARE: a webhook set offline or online meanwhile (update-webhook.ts, under FOR UPDATE)
    // waits for this commit, then parks or resumes the deliveries made here; read without the lock,
    // a delivery made for a webhook just set online stayed pending_offline until its next toggle
    const webhooks = await trx
      .selectFrom('webhooks')
      .selectAll()
      .where('workspace_id', 'in', [...new Set(taken.map((r) => r.workspace_id))])
      .forShare()
      .execute();
    if (!webhooks.length) return { events: taken.length, deliveries: 0 };
    const subscribed = new Set(webhooks.map((w) => w.workspace_id));
    const seqs = taken.filter((r) => subscribed.has(r.workspace_id)).map((r) => r.seq);
    const { rows } = await sql<OutboxEvent>`
      select id, workspace_id, case_id, type, sub_event, payload, created_at, trace_context from events
      where seq = any(${seqs}::bigint[]) order by seq
    `.execute(trx);
    const deliveries = await buildDeliveries(trx, rows, webhooks);
    await insertDeliveries(trx, deliveries);
    return { events: taken.length, deliveries: deliveries.length };
  });
}

/**
 * Reclaims the outbox's deleted rows (outside any transaction: VACUUM refuses to run in one). It
 * takes a lock that inserts and deletes do not wait for; SKIP_LOCKED: when another process is
 * vacuuming the outbox, this one does not wait for it.
 */
export async function vacuumOutbox(db: Db): Promise<void> {
  await sql`vacuum (skip_locked) event_outbox`.execute(db);
}
