import { type Kysely, sql } from 'kysely';
import { type ActorType, activityTypeOf } from '../../activities/activity-type.ts';
import { runStatements } from '../run-statements.ts';

// Events become the activity log (GET /v1/activities): each row records who caused it
// (actor_type: api, system, user, contact; actor_id: the template behind a system action), the
// company and individual it is about, and the reference activity type it is (null: not an
// activity). recordEvents fills them from now on; older rows are derived here from their type and
// payload: the engine's own events (expiry, review due, flags, automatic check and case decisions,
// checks started by a template) are system, everything else came through the API.
// actor_type defaults to 'system' only for raw inserts (benchmarks): the application always sets it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    alter table events
      add column actor_type text not null default 'system',
      add column actor_id uuid,
      add column company_id uuid,
      add column individual_id uuid,
      add column activity_type text;
    update events set
      company_id = coalesce(payload->'company'->>'id', payload->'check'->>'company_id',
        payload->'case_relation'->>'from_company_id')::uuid,
      individual_id = coalesce(payload->'individual'->>'id', payload->'check'->>'individual_id',
        payload->'case_relation'->>'from_individual_id')::uuid,
      actor_type = case
        when coalesce(sub_event, type) in ('Check.Expired', 'Check.ReviewNeeded', 'Case.ReviewDue',
          'Case.FlagsUpdated', 'Case.ReviewerHasActionsUpdated') then 'system'
        when type in ('Check.Approved', 'Check.Rejected')
          and payload->'check'->'data'->'review'->>'reviewer_type' is distinct from 'api' then 'system'
        when coalesce(sub_event, type) in ('Case.StatusUpdated', 'Case.ReviewConfirmed')
          and payload->'case'->'review'->>'reviewer_type' = 'system' then 'system'
        else 'api' end;
    update events e set actor_type = 'system', actor_id = k.template_id
      from checks k
      where e.type = 'Check.Started' and k.id = (e.payload->'check'->>'id')::uuid and k.template_id is not null;
    create index events_ws_activity on events(workspace_id, created_at, seq) where activity_type is not null;
    create index events_ws_activity_type on events(workspace_id, activity_type, created_at) where activity_type is not null;
    create index events_ws_case on events(workspace_id, case_id, created_at) where activity_type is not null;
    create index events_ws_company on events(workspace_id, company_id, created_at) where company_id is not null and activity_type is not null;
    create index events_ws_individual on events(workspace_id, individual_id, created_at) where individual_id is not null and activity_type is not null
  `,
  );
  // the activity type of older rows, from the same mapping recordEvents uses (one update per kind)
  const kinds = await sql<{ type: string; sub_event: string | null; actor_type: ActorType }>`
    select distinct type, sub_event, actor_type from events
  `.execute(db);
  for (const k of kinds.rows) {
    const activity = activityTypeOf(k.type, k.sub_event, k.actor_type);
    if (!activity) continue;
    await sql`
      update events set activity_type = ${activity}
      where type = ${k.type} and sub_event is not distinct from ${k.sub_event} and actor_type = ${k.actor_type}
    `.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop index events_ws_activity, events_ws_activity_type, events_ws_case, events_ws_company, events_ws_individual;
    alter table events drop column actor_type, drop column actor_id, drop column company_id,
      drop column individual_id, drop column activity_type
  `,
  );
}
