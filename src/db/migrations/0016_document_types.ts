import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Document types (issue 12): what a `document` check asks for. Built-in types have no workspace
// (workspace_id null) and are seeded here with fixed ids; a workspace adds its own with
// POST /v1/document_types and archives them (archived_at) with DELETE. A key is unique within a
// workspace, archived types included (a check's subtype names its type by key, so a key never
// changes meaning), and a custom key may not be a built-in key.
const BUILT_IN: [number, string, string, string[]][] = [
  [1, 'registration_certificate', 'Registration certificate', ['company']],
  [2, 'articles_of_association', 'Articles of association', ['company']],
  [3, 'proof_of_address', 'Proof of address', ['company', 'individual']],
  [4, 'bank_account_details', 'Bank account details (RIB)', ['company', 'individual']],
  [5, 'id_card_copy', 'ID card copy', ['individual']],
  [6, 'ubo_register_extract', 'UBO register extract', ['company']],
  [7, 'tax_certificate', 'Tax certificate', ['company', 'individual']],
  [8, 'shareholder_register', 'Shareholder register', ['company']],
  [9, 'financial_statements', 'Financial statements', ['company']],
  [10, 'power_of_attorney', 'Power of attorney', ['company', 'individual']],
];

const builtInId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const rows = BUILT_IN.map(
    ([n, key, label, targets]) =>
      `('${builtInId(n)}', null, '${key}', '${label}', array[${targets.map((t) => `'${t}'`).join(', ')}]::text[], false, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
  ).join(',\n      ');
  await runStatements(
    db,
    `
    create table document_types (
      id uuid primary key,
      workspace_id uuid references workspaces(id) on delete cascade,
      key text not null,
      label text not null,
      target_entities text[] not null,
      is_internal boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      archived_at timestamptz
    );
    create unique index document_types_builtin_key on document_types(key) where workspace_id is null;
    create unique index document_types_ws_key on document_types(workspace_id, key) where workspace_id is not null;
    create index document_types_ws on document_types(workspace_id, created_at, id);
    insert into document_types (id, workspace_id, key, label, target_entities, is_internal, created_at, updated_at)
    values
      ${rows};
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table document_types');
}
