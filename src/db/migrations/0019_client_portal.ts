import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The client portal (issue 13): the web page where a case's business contact supplies what is asked.
// - client_portals: a workspace's portals. Each workspace has one default portal (is_default, at most
//   one per workspace: the partial unique index), created on first need by an upsert on that index,
//   so workspaces older than this migration get theirs too. `wait_steps` is the ordered list
//   [{key, title}] of points where the contact waits for the operator once everything is submitted.
// - client_portal_links: links shared with a contact. Only the SHA-256 of the token is stored
//   (token_hash, unique); check_id null is a case-wide link, set a link for one check (an
//   id_verification's verification_url). A link is live while revoked_at is null and expires_at is
//   in the future.
// - client_portal_pending_files: files the contact uploaded through the portal for a check, kept
//   until the contact submits them to the check (so a step survives closing the page).
// - cases.client_portal_id: the portal of the last link shared for the case (the detailed case's
//   `client_portal`); cases.client_portal_wait_step_key: the wait step the contact reached and waits
//   on (emitted once), cleared when completed; cases.completed_wait_step_keys: the completed ones.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table client_portals (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      name text not null,
      status text not null default 'online',
      default_language text not null default 'en',
      accent_color text,
      logo_file_id uuid references files(id) on delete set null,
      wait_steps jsonb not null default '[]',
      is_default boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index client_portals_default on client_portals(workspace_id) where is_default;
    create index client_portals_ws on client_portals(workspace_id, created_at, id);

    create table client_portal_links (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      client_portal_id uuid not null references client_portals(id) on delete cascade,
      case_id uuid not null references cases(id) on delete cascade,
      individual_id uuid not null references individuals(id) on delete cascade,
      check_id uuid references checks(id) on delete cascade,
      token_hash text not null unique,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      created_at timestamptz not null default now(),
      last_used_at timestamptz
    );
    create index client_portal_links_case on client_portal_links(case_id, individual_id) where revoked_at is null;
    create index client_portal_links_check on client_portal_links(check_id) where check_id is not null;

    create table client_portal_pending_files (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      check_id uuid not null references checks(id) on delete cascade,
      slot text not null,
      file_id uuid not null references files(id) on delete cascade,
      upload_ref text not null,
      file_name text not null,
      size integer not null,
      created_at timestamptz not null default now()
    );
    create index client_portal_pending_files_check on client_portal_pending_files(check_id, created_at, id);

    alter table cases add column client_portal_id uuid references client_portals(id) on delete set null;
    alter table cases add column client_portal_wait_step_key text;
    alter table cases add column completed_wait_step_keys text[] not null default '{}'
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    alter table cases drop column completed_wait_step_keys;
    alter table cases drop column client_portal_wait_step_key;
    alter table cases drop column client_portal_id;
    drop table client_portal_pending_files;
    drop table client_portal_links;
    drop table client_portals
  `,
  );
}
