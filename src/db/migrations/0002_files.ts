import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Uploaded files: written with an upload_ref, readable by id once a check references them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table files (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      upload_ref text not null unique,
      storage_key text not null,
      size integer not null,
      mime text not null,
      sha256 text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      attached_at timestamptz
    );
    create index files_ws_upload_ref on files(workspace_id, upload_ref);
    create index files_unattached_expiry on files(expires_at) where attached_at is null;
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table files;');
}
