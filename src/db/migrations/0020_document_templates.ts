import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Document templates (issue 14): a workspace's HTML documents with Handlebars placeholders, rendered
// for a case into a PDF (an electronic_signature check's document, or a report).
// - document_templates: key unique per workspace (the API addresses templates by key), kind
//   `electronic_signature` | `report` (a signature check only takes the first).
// - document_template_versions: numbered 1, 2, ... per template; `draft` until published. The latest
//   published version is the one used; published versions are never edited (a new draft is made),
//   so a started signature request can point at the version it froze.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table document_templates (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      key text not null,
      name text not null,
      kind text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index document_templates_key on document_templates(workspace_id, key);
    create index document_templates_list on document_templates(workspace_id, created_at, id);

    create table document_template_versions (
      id uuid primary key,
      template_id uuid not null references document_templates(id) on delete cascade,
      number integer not null,
      content text not null,
      status text not null default 'draft',
      published_at timestamptz,
      created_at timestamptz not null default now()
    );
    create unique index document_template_versions_number on document_template_versions(template_id, number);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table document_template_versions;\ndrop table document_templates;');
}
