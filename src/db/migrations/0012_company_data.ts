import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Company data: search refs (what a search showed, fetchable for a day by its workspace), the
// profile cache shared by every workspace (registry data is public), and each workspace's fetches
// per month, counted against its fetch limit.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table company_data_search_refs (
      ref text primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      vendor text not null,
      country text not null,
      vendor_ref text not null,
      candidate jsonb not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null
    );
    create index company_data_search_refs_expiry on company_data_search_refs(expires_at);

    create table company_data_profiles (
      vendor text not null,
      country text not null,
      vendor_ref text not null,
      profile jsonb not null,
      raw jsonb not null,
      fetched_at timestamptz not null,
      primary key (vendor, country, vendor_ref)
    );
    create index company_data_profiles_fetched on company_data_profiles(fetched_at);

    create table company_data_fetch_counts (
      workspace_id uuid not null references workspaces(id) on delete cascade,
      month text not null,
      count integer not null,
      primary key (workspace_id, month)
    );
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop table company_data_fetch_counts;
     drop table company_data_profiles;
     drop table company_data_search_refs`,
  );
}
