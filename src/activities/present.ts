import type { Selectable } from 'kysely';
import type { ActivityChange, EventsTable } from '../db/schema.ts';
import { iso } from '../shared/time.ts';
import type { NestedUserOut } from '../users/nested-user.ts';
import type { ActivityType } from './activity-types.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null);
const pick = (o: Obj, keys: string[]) => Object.fromEntries(keys.map((k) => [k, o[k] ?? null]));

/** The context of an activity, read from the event's payload (the entities as they were then). */
function contextOf(payload: Obj) {
  const context: Obj = {};
  const kase = obj(payload.case);
  if (kase && typeof kase.status === 'string') context.case = { status: kase.status };
  const review = obj(payload.case_review);
  if (review) context.case_review = pick(review, ['id', 'status', 'comment', 'next_review_at']);
  const risk = obj(payload.risk);
  if (risk) context.risk = pick(risk, ['id', 'level', 'mode', 'comment']);
  const template = obj(kase?.template);
  if (template) context.template = pick(template, ['id', 'name', 'key']);
  const relation = obj(payload.case_relation);
  if (relation)
    context.case_relation = pick(relation, ['id', 'from_company_id', 'from_individual_id', 'to_company_id']);
  const check = obj(payload.check);
  if (check) context.check = pick(check, ['id', 'type', 'subtype']);
  if (typeof payload.aml_hit_ids === 'string') context.aml_hit_ids = payload.aml_hit_ids;
  return context;
}

export type ActivityEventRow = Pick<
  Selectable<EventsTable>,
  | 'id'
  | 'case_id'
  | 'company_id'
  | 'individual_id'
  | 'activity_type'
  | 'actor_type'
  | 'actor_id'
  | 'payload'
  | 'activity_changes'
  | 'created_at'
>;

/** `users`: the console users of `user` activities, by id (see nestedUsersById). */
export function presentActivity(e: ActivityEventRow, users: Map<string, NestedUserOut> = new Map()) {
  const payload = (typeof e.payload === 'string' ? JSON.parse(e.payload) : e.payload) as Obj;
  return {
    id: e.id,
    case_id: e.case_id as string,
    individual_id: e.individual_id,
    company_id: e.company_id,
    type: e.activity_type as ActivityType,
    author_type: e.actor_type as 'api' | 'user' | 'system' | 'contact',
    author_id: e.actor_id,
    user: (e.actor_type === 'user' && e.actor_id ? users.get(e.actor_id) : undefined) ?? null,
    context: contextOf(payload),
    // recorded where the payload cannot tell them (the tags a tags activity touched), else null
    changes: (typeof e.activity_changes === 'string' ? JSON.parse(e.activity_changes) : e.activity_changes) as
      | ActivityChange[]
      | null,
    created_at: iso(e.created_at),
  };
}
