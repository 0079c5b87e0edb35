import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

/**
 * Templates (checks to create on a case's entities, and case auto-approval). `cases.template`
 * caches the case's template as {id, name, key} so every case presentation (lists, events) shows
 * it without a lookup; a template rename rewrites it in the same transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table templates (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      key text not null,
      name text not null,
      description text,
      case_auto_approval boolean not null default false,
      checks jsonb not null default '[]'::jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    );
    create unique index templates_ws_key on templates(workspace_id, key) where deleted_at is null;
    create index templates_ws_updated on templates(workspace_id, updated_at, id);
    create index templates_ws_created on templates(workspace_id, created_at, id);
    alter table cases add column template jsonb;
    create index cases_template on cases(template_id) where template_id is not null;
    create index checks_case_template on checks(case_id, template_id) where template_id is not null
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    drop index checks_case_template;
    drop index cases_template;
    alter table cases drop column template;
    drop table templates
  `,
  );
}
