import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Case reports (issue 12): `POST /cases/{id}/generate-report` records a request (status `requested`)
// and its job in one transaction; the job renders the PDF, stores it as a generated file and marks the
// report `generated` (file_id, generated_at) or `failed` (error). `base_url` is the service's public
// address when requested, from which the download URL sent with `CaseReport.Generated` is built.
// Deleting the case deletes its reports; the file stays the workspace's.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table case_reports (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      case_id uuid not null references cases(id) on delete cascade,
      status text not null default 'requested',
      timezone text not null,
      base_url text not null,
      file_id uuid references files(id) on delete set null,
      requested_at timestamptz not null default now(),
      generated_at timestamptz,
      error text
    );
    create index case_reports_case on case_reports(case_id, requested_at, id);
    create index case_reports_ws on case_reports(workspace_id, requested_at, id);
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table case_reports');
}
