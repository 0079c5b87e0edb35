import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// A withdrawn link's hash (0040) is kept only as long as the link would have lived: the link's own
// expires_at is kept with it, the portal ignores the row after it (the token is then unknown, as it
// would be once dropped) and the next withdrawal in the workspace drops it
// (src/client-portals/links.ts). Rows kept before this migration did not record it: they get the
// latest time a link withdrawn then could have lived to under the default lifetime
// (VERICASE_PORTAL_LINK_TTL_HOURS, 168 hours, counted from the withdrawal).
// An erased case keeps its links' hashes too, read by case_id whatever their state: the index on
// case_id of 0019 holds live links only (it serves the foreign key's cascade as well).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table client_portal_withdrawn_links add column expires_at timestamptz;
     update client_portal_withdrawn_links set expires_at = withdrawn_at + interval '168 hours';
     alter table client_portal_withdrawn_links alter column expires_at set not null;
     create index client_portal_withdrawn_links_expiry on client_portal_withdrawn_links(workspace_id, expires_at);
     create index client_portal_links_by_case on client_portal_links(case_id);`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `drop index client_portal_links_by_case;
     drop index client_portal_withdrawn_links_expiry;
     alter table client_portal_withdrawn_links drop column expires_at;`,
  );
}
