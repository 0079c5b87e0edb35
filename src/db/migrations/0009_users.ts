import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Tables the reference API reads before vericase has the features that fill them, so integrations
// calling these endpoints work (with empty lists) from now on:
// - users: the console users of a workspace. The console (e-mail/password, roles) comes later;
//   password_hash is nullable until then. An e-mail is unique within a workspace, case-insensitively.
// - company_vendor_data: raw registry answers fetched for a company, one row per fetch (a registry
//   provider comes later). Deleting the company deletes them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table users (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      first_name text not null,
      last_name text not null,
      email text not null,
      role text not null,
      password_hash text,
      created_at timestamptz not null default now(),
      suspended_at timestamptz
    );
    create unique index users_ws_email on users(workspace_id, lower(email));
    create index users_ws_created on users(workspace_id, created_at, id);

    create table company_vendor_data (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      company_id uuid not null references companies(id) on delete cascade,
      name text not null,
      raw jsonb not null,
      fetched_at timestamptz not null default now()
    );
    create index company_vendor_data_company on company_vendor_data(company_id, fetched_at);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table company_vendor_data, users');
}
