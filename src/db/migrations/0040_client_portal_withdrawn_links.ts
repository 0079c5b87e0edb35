import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// A portal link goes with the individual or the check it was given for (foreign keys). So that its
// page says the link was withdrawn (401 PORTAL_LINK_REVOKED) rather than that it never existed
// (PORTAL_LINK_UNKNOWN), the deletion first keeps the token's hash here (src/client-portals/links.ts,
// keepWithdrawnLinks): a hash only, with its workspace, nothing of the person or the case.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create table client_portal_withdrawn_links (
       token_hash text primary key,
       workspace_id uuid not null references workspaces(id) on delete cascade,
       withdrawn_at timestamptz not null default now()
     );`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table client_portal_withdrawn_links;');
}
