import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Webhooks: subscriptions, one delivery per (event, webhook) with its attempts, and the outbox
// marker on events. Events recorded before this migration had no subscriber: they count as
// dispatched.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    alter table events add column dispatched_at timestamptz;
    update events set dispatched_at = created_at;
    create index events_undispatched on events(seq) where dispatched_at is null;

    create table webhooks (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      name text not null,
      status text not null default 'online',
      type text not null default 'user',
      url text not null,
      events text[] not null,
      secret text not null,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      failure_streak integer not null default 0,
      failure_streak_started_at timestamptz,
      last_success_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index webhooks_ws on webhooks(workspace_id, created_at, id);

    create table webhook_deliveries (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      webhook_id uuid not null references webhooks(id) on delete cascade,
      event_id uuid not null,
      event text not null,
      case_id uuid,
      company_id uuid,
      individual_id uuid,
      payload text not null,
      status text not null,
      attempt_count integer not null default 0,
      next_attempt_type text not null default 'first_call',
      next_attempt_at timestamptz,
      lease_until timestamptz,
      last_attempt_at timestamptz,
      last_status_code integer,
      event_created_at timestamptz not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index webhook_deliveries_due on webhook_deliveries(next_attempt_at) where status = 'pending';
    create index webhook_deliveries_leased on webhook_deliveries(lease_until) where status = 'sending';
    create index webhook_deliveries_ws on webhook_deliveries(workspace_id, event_created_at, id);
    create index webhook_deliveries_webhook on webhook_deliveries(webhook_id, status);
    create index webhook_deliveries_created on webhook_deliveries(created_at);

    create table webhook_attempts (
      id uuid primary key,
      delivery_id uuid not null references webhook_deliveries(id) on delete cascade,
      workspace_id uuid not null,
      type text not null,
      endpoint text not null,
      status_code integer not null,
      request_headers jsonb not null,
      response_headers jsonb,
      response_body text,
      error text,
      duration_ms integer not null,
      attempted_at timestamptz not null
    );
    create index webhook_attempts_delivery on webhook_attempts(delivery_id, attempted_at);

    create table case_review_due_emissions (
      case_id uuid primary key references cases(id) on delete cascade,
      next_review_at text not null,
      emitted_at timestamptz not null default now()
    );
    create index cases_next_review_due on cases(next_review_at) where next_review_at is not null and deleted_at is null;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop index cases_next_review_due;
    drop table case_review_due_emissions, webhook_attempts, webhook_deliveries, webhooks;
    drop index events_undispatched;
    alter table events drop column dispatched_at;
  `,
  );
}
