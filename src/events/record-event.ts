import { randomUUID } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { type ActorType, activityTypeOf } from '../activities/activity-type.ts';
import type { Db } from '../db/connect.ts';
import { insertValues } from '../db/insert-values.ts';
import { PREPARE_MARK } from '../db/pglite-prepared-inserts.ts';
import type { ActivityChange } from '../db/schema.ts';
import { currentTraceCarrier } from '../ops/tracing.ts';
import { currentApiKeyId, currentContactId, currentUserId, noteEventCase } from '../shared/request-scope.ts';
import { ACTIVITY_ONLY_EVENTS } from './catalog.ts';
import { signalWebhookWork } from './outbox-signal.ts';

/**
 * Who caused an event; `id` is the template behind a system action when there is one, the console
 * user behind a `user` action, and for an `api` action the key of the request being served.
 */
export interface Actor {
  type: ActorType;
  id?: string | null;
}

/** The engine acting on its own: a provider result, an automatic decision, a scheduled job. */
export const SYSTEM: Actor = { type: 'system' };

export interface DomainEvent {
  type: string;
  sub_event?: string | null;
  case_id?: string | null;
  /** The entity the event is about, keyed by its kind (`case`, `company`, `check`, ...). */
  payload: Record<string, unknown>;
  /**
   * Who caused it. Omitted means the request being served: an API call (every use case behind a /v1
   * route leaves it out) or, inside a client portal request, the contact whose link it carries. The
   * engine's own changes (jobs, provider results, automatic decisions) pass SYSTEM.
   */
  actor?: Actor;
  /**
   * The activity's `{verb}__{subject}` when the event name alone does not tell it: `Case.TagsUpdated`
   * is `added_tags__case` or `removed_tags__case` (no activity without it).
   */
  activity?: 'added_tags__case' | 'removed_tags__case' | null;
  /** The activity's field-level changes, where the payload cannot tell them (the tags a change touched). */
  changes?: ActivityChange[];
}

const idOf = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** The SQL condition of a delivered event (its type a constant list: part of the prepared text). */
const NOT_ACTIVITY_ONLY = `type not in (${[...ACTIVITY_ONLY_EVENTS].map((t) => `'${t.replace(/'/g, "''")}'`).join(', ')})`;

/** The company and individual an event is about (indexed columns for the activity filters). */
function subjects(payload: Record<string, unknown>): {
  company_id: string | null;
  individual_id: string | null;
} {
  const p = payload as Record<string, Record<string, unknown> | undefined>;
  return {
    company_id:
      idOf(p.company?.id) ??
      idOf(p.check?.company_id) ??
      idOf(p.case_relation?.from_company_id) ??
      idOf(p.document_order?.company_id) ??
      null,
    individual_id:
      idOf(p.individual?.id) ??
      idOf(p.check?.individual_id) ??
      idOf(p.case_relation?.from_individual_id) ??
      null,
  };
}

/**
 * Appends events, and their places in the webhook outbox, in one statement. Always called with the
 * transaction that makes the change, so an event exists exactly when its change committed, in
 * commit order (`seq`). Each row also records its actor and the reference activity it is
 * (GET /v1/activities reads them by index).
 */
export async function recordEvents(trx: Db, workspaceId: string, events: DomainEvent[]): Promise<void> {
  if (!events.length) return;
  // a stored Idempotency-Key answer is about this case: not replayed once it is deleted
  const aboutCase = events.find((e) => e.case_id)?.case_id;
  if (aboutCase) noteEventCase(aboutCase);
  const traced = currentTraceCarrier();
  const traceContext = traced ? JSON.stringify(traced) : null;
  // the request being served: a portal contact, a console user's session, or an API key
  const contactId = currentContactId();
  const userId = currentUserId();
  const requestActor: Actor = contactId
    ? { type: 'contact', id: contactId }
    : userId
      ? { type: 'user', id: userId }
      : { type: 'api' };
  // the events and their outbox rows in one statement; its text is built by insertValues, not by
  // Kysely's builder (every write records events: src/db/insert-values.ts says why)
  const insert = insertValues(
    'events',
    events.map((e) => {
      const actor = e.actor ?? requestActor;
      // an API change names the key it was made with (when recorded while serving the request)
      const actorId = actor.id ?? (actor.type === 'api' ? currentApiKeyId() : null);
      return {
        id: randomUUID(),
        workspace_id: workspaceId,
        case_id: e.case_id ?? null,
        type: e.type,
        sub_event: e.sub_event ?? null,
        payload: JSON.stringify(e.payload),
        actor_type: actor.type,
        actor_id: actorId,
        activity_type: activityTypeOf(e.type, e.sub_event ?? null, actor.type, e.activity),
        activity_changes: e.changes?.length ? JSON.stringify(e.changes) : null,
        trace_context: traceContext,
        ...subjects(e.payload),
      };
    }),
  );
  await trx.executeQuery(
    CompiledQuery.raw(
      // prepared once on the embedded database (src/db/pglite-prepared-inserts.ts): only values are
      // parameters. Activity-only events (ACTIVITY_ONLY_EVENTS: an AML hit review, a contact's first
      // submission) get no outbox row: they are never delivered
      `${PREPARE_MARK}with recorded as (${insert.text} returning seq, workspace_id, type) insert into event_outbox (seq, workspace_id) select seq, workspace_id from recorded where ${NOT_ACTIVITY_ONLY}`,
      insert.params,
    ),
  );
  // the webhook loop of this process may be in its slow idle poll: back to the fast one
  signalWebhookWork();
}
