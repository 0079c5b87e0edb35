import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Document orders (issue 11): a registry document (e.g. the company's extract) ordered for a company
// of a case. The order remembers which registry record it was placed with (vendor, country,
// registry_ref) so the job that produces the file does not depend on the company's later edits.
// status: created → processing → completed (file_id set) or failed (failure_reason set); attempts
// counts the job runs. Deleting the company (or its case) deletes its orders; the file stays the
// workspace's.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table document_orders (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      case_id uuid not null references cases(id) on delete cascade,
      company_id uuid not null references companies(id) on delete cascade,
      vendor text not null,
      country text not null,
      registry_ref text not null,
      product_ref text not null,
      name text not null,
      price_tier text not null,
      status text not null default 'created',
      file_id uuid references files(id) on delete set null,
      failure_reason text,
      attempts integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index document_orders_case on document_orders(case_id, created_at, id);
    create index document_orders_company on document_orders(company_id, created_at, id);
    create index document_orders_ws on document_orders(workspace_id, created_at, id);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table document_orders');
}
