import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// One migration set for PGlite (PostgreSQL 18) and the PostgreSQL 15 servers: nothing newer than 15.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table workspaces (
      id uuid primary key,
      name text not null,
      settings jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table api_keys (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      key_hash text not null unique,
      prefix text not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    );
    create index api_keys_workspace on api_keys(workspace_id);

    create table cases (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      external_id text,
      name text not null,
      status text not null,
      template_id uuid,
      assignee_id text,
      space_slug text,
      tags text[] not null default '{}',
      flags text[] not null default '{}',
      metadata jsonb,
      custom_properties jsonb not null default '{}'::jsonb,
      risk jsonb,
      review jsonb,
      contact_has_actions boolean not null default false,
      reviewer_has_actions boolean not null default false,
      last_contact_action_at timestamptz,
      next_review_at text,
      last_activity_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create unique index cases_external_id on cases(workspace_id, external_id) where deleted_at is null;
    create index cases_ws_created on cases(workspace_id, created_at, id) where deleted_at is null;
    create index cases_ws_activity on cases(workspace_id, last_activity_at) where deleted_at is null;
    create index cases_ws_name on cases(workspace_id, name) where deleted_at is null;
    create index cases_ws_status on cases(workspace_id, status, created_at) where deleted_at is null;
    create index cases_tags on cases using gin(tags);

    create table companies (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      case_id uuid not null references cases(id) on delete cascade,
      type text not null,
      name text not null,
      is_relevant boolean not null default true,
      commercial_name text,
      country text,
      registration_number text,
      registration_date text,
      status text not null default 'not_reported',
      legal_form text,
      entity_legal_form text,
      address jsonb not null default '{}'::jsonb,
      classifications jsonb not null default '[]'::jsonb,
      banking_information jsonb,
      share_capital text,
      tax_identification_number text,
      website_url text,
      employer_identification_number text,
      custom_properties jsonb not null default '{}'::jsonb,
      last_activity_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index companies_case on companies(case_id);
    create index companies_ws_created on companies(workspace_id, created_at, id);
    create unique index companies_one_main on companies(case_id) where type = 'main';

    create table individuals (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      case_id uuid not null references cases(id) on delete cascade,
      roles text[] not null default '{}',
      is_beneficial_owner boolean not null default false,
      is_controlling_person boolean not null default false,
      is_business_contact boolean not null default false,
      is_delegator boolean not null default false,
      is_signatory boolean not null default false,
      is_relevant boolean not null default true,
      first_name text not null,
      middle_name text,
      last_name text not null,
      maiden_name text,
      email text,
      birth_date text,
      birth_country text,
      birth_place text,
      gender text,
      nationalities text[],
      address jsonb not null default '{}'::jsonb,
      banking_information jsonb,
      tax_identification_number text,
      social_security_number text,
      phone_number text,
      position text,
      ownership_percentage double precision,
      voting_rights_percentage double precision,
      custom_properties jsonb not null default '{}'::jsonb,
      last_activity_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index individuals_case on individuals(case_id);
    create index individuals_ws_created on individuals(workspace_id, created_at, id);

    create table relations (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      case_id uuid not null references cases(id) on delete cascade,
      from_company_id uuid references companies(id) on delete cascade,
      from_individual_id uuid references individuals(id) on delete cascade,
      to_company_id uuid not null references companies(id) on delete cascade,
      voting_rights_percentage double precision,
      ownership_percentage double precision,
      roles text[] not null default '{}',
      position text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint relations_one_source check ((from_company_id is null) <> (from_individual_id is null))
    );
    create index relations_case on relations(case_id);
    create unique index relations_company_unique on relations(from_company_id, to_company_id) where from_company_id is not null;
    create unique index relations_individual_unique on relations(from_individual_id, to_company_id) where from_individual_id is not null;
    create index relations_to on relations(to_company_id);

    create table case_reviews (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      case_id uuid not null references cases(id) on delete cascade,
      status text not null,
      comment text,
      reviewer_type text not null,
      reviewed_at timestamptz not null,
      next_review_at text,
      created_at timestamptz not null default now()
    );
    create index case_reviews_case on case_reviews(case_id);

    create table risks (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      case_id uuid not null references cases(id) on delete cascade,
      mode text not null,
      level text not null,
      comment text,
      score double precision,
      components jsonb,
      flags jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index risks_case on risks(case_id);

    create table notes (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      case_id uuid not null references cases(id) on delete cascade,
      content text not null,
      author_type text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index notes_case on notes(case_id, created_at);

    create table note_comments (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      note_id uuid not null references notes(id) on delete cascade,
      content text not null,
      author_type text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index note_comments_note on note_comments(note_id, created_at);

    create table tags (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      label text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index tags_label on tags(workspace_id, label);

    create table events (
      id uuid primary key,
      seq bigserial not null unique,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      case_id uuid,
      type text not null,
      sub_event text,
      payload jsonb not null,
      created_at timestamptz not null default now()
    );
    create index events_ws_seq on events(workspace_id, seq);

    create table idempotency_keys (
      workspace_id uuid not null references workspaces(id) on delete cascade,
      key text not null,
      request_hash text not null,
      status_code integer,
      response_body text,
      created_at timestamptz not null default now(),
      primary key (workspace_id, key)
    );
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop table idempotency_keys, events, tags, note_comments, notes, risks, case_reviews,
      relations, individuals, companies, cases, api_keys, workspaces cascade;
  `,
  );
}
