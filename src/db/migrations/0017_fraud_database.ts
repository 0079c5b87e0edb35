import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The shared fraud list (issue 12) and the workspace check counter.
// - service_secrets: service-level values every process must share, created once (the fraud list's
//   HMAC key when VERICASE_FRAUD_HASH_SECRET is not configured). No workspace owns them.
// - fraud_reports: a workspace's report of one of its entities. It keeps the reporting workspace's
//   own entity id and reason (for its own list and withdrawal; never shown to another workspace) and
//   no foreign key to the entity: the report outlives the case it came from. One report per entity.
// - fraud_report_identifiers: the keyed hashes (HMAC-SHA256) of the entity's normalised identifiers
//   at report time, by kind (email, phone, iban, registration_number, name_birth_date). Never raw
//   values. Withdrawing a report deletes its hashes.
// - check_counts: checks created per workspace and calendar month (UTC), the counter
//   `checks.limit` is enforced on (an upsert guarded by the limit, so concurrent creations cannot
//   pass it). Seeded with this month's checks already created.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table service_secrets (
      name text primary key,
      value text not null,
      created_at timestamptz not null default now()
    );

    create table fraud_reports (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      individual_id uuid,
      company_id uuid,
      reason text not null,
      identifier_kinds jsonb not null,
      created_at timestamptz not null default now(),
      check ((individual_id is null) <> (company_id is null))
    );
    create index fraud_reports_workspace on fraud_reports(workspace_id, created_at, id);
    create unique index fraud_reports_individual on fraud_reports(workspace_id, individual_id)
      where individual_id is not null;
    create unique index fraud_reports_company on fraud_reports(workspace_id, company_id)
      where company_id is not null;

    create table fraud_report_identifiers (
      report_id uuid not null references fraud_reports(id) on delete cascade,
      kind text not null,
      hash text not null,
      primary key (report_id, kind, hash)
    );
    create index fraud_report_identifiers_hash on fraud_report_identifiers(hash, kind);

    create table check_counts (
      workspace_id uuid not null references workspaces(id) on delete cascade,
      month text not null,
      count integer not null,
      primary key (workspace_id, month)
    );
    insert into check_counts (workspace_id, month, count)
      select workspace_id, to_char(now() at time zone 'UTC', 'YYYY-MM'), count(*)
      from checks
      where created_at >= date_trunc('month', now() at time zone 'UTC') at time zone 'UTC'
      group by workspace_id;
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop table check_counts;
     drop table fraud_report_identifiers;
     drop table fraud_reports;
     drop table service_secrets`,
  );
}
