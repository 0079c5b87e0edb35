import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table checks (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      case_id uuid not null references cases(id) on delete cascade,
      company_id uuid references companies(id) on delete cascade,
      individual_id uuid references individuals(id) on delete cascade,
      type text not null,
      status text not null,
      subtype text,
      is_internal boolean not null default false,
      data jsonb not null default '{}'::jsonb,
      internal jsonb not null default '{}'::jsonb,
      attempt integer not null default 1,
      history jsonb not null default '[]'::jsonb,
      template_id uuid,
      expires_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_activity_at timestamptz not null default now(),
      constraint checks_one_target check ((company_id is null) <> (individual_id is null))
    );
    create index checks_case on checks(case_id);
    create index checks_company on checks(company_id);
    create index checks_individual on checks(individual_id);
    create index checks_ws_created on checks(workspace_id, created_at, id);
    create index checks_ws_updated on checks(workspace_id, updated_at, id);
    create index checks_expiring on checks(expires_at) where expires_at is not null and status <> 'expired'
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table checks');
}
