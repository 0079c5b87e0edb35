import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Registry data in the case (issue 11):
// - a company may be linked to its registry record (vendor, country, the vendor's own id, when);
// - companies and individuals say, per field, whether its value came from the registry or was typed
//   (`property_origin`: field → 'registry' | 'input'; null for entities created before this);
// - company_monitoring_state keeps, per linked company, the registry snapshot monitoring compares
//   against and when it is due again. Deleting the company deletes it.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    alter table companies add column registry_vendor text;
    alter table companies add column registry_country text;
    alter table companies add column registry_vendor_ref text;
    alter table companies add column registry_linked_at timestamptz;
    alter table companies add column property_origin jsonb;
    alter table individuals add column property_origin jsonb;

    create table company_monitoring_state (
      company_id uuid primary key references companies(id) on delete cascade,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      snapshot jsonb not null,
      last_checked_at timestamptz not null default now(),
      next_check_at timestamptz not null,
      last_error text
    );
    create index company_monitoring_state_due on company_monitoring_state(next_check_at);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop table company_monitoring_state;
     alter table individuals drop column property_origin;
     alter table companies drop column property_origin;
     alter table companies drop column registry_linked_at;
     alter table companies drop column registry_vendor_ref;
     alter table companies drop column registry_country;
     alter table companies drop column registry_vendor`,
  );
}
