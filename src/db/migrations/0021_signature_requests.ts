import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// Electronic signature (issue 14): the request behind an electronic_signature check, and its audit
// events.
// - signature_requests: one per check (unique check_id), created when the signer first reaches the
//   portal. The document is rendered then and frozen: its PDF is stored as a file (document_file_id,
//   recorded as a generated file) with its SHA-256, and its HTML is kept so the portal page can show
//   the whole document (browsers on phones show PDFs poorly). link_id is the check-scoped portal
//   link handed out as data.vendor.signature_link. The one-time code is kept only as a hash
//   (code_hash, a SHA-256 of the request id and the code), with its expiry, the wrong attempts
//   spent and when it was sent (for the resend limit). status: ongoing, signed, declined.
// - signature_events: the audit trail (created, opened, code sent, code verified, signed,
//   declined...) with time, IP and user agent; printed in the audit trail PDF.
// No foreign key to document_template_versions: the frozen document is what counts once started.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table signature_requests (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      check_id uuid not null references checks(id) on delete cascade,
      template_version_id uuid not null,
      document_file_id uuid not null references files(id),
      document_sha256 text not null,
      document_html text not null,
      document_pages integer not null,
      status text not null,
      link_id uuid references client_portal_links(id) on delete set null,
      code_hash text,
      code_expires_at timestamptz,
      code_attempts integer not null default 0,
      code_sent_at timestamptz,
      code_verified_at timestamptz,
      signed_at timestamptz,
      declined_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index signature_requests_check on signature_requests(check_id);
    create index signature_requests_ws on signature_requests(workspace_id);

    create table signature_events (
      id uuid primary key,
      workspace_id uuid not null references workspaces(id) on delete cascade,
      check_id uuid not null references checks(id) on delete cascade,
      type text not null,
      at timestamptz not null default now(),
      ip text,
      user_agent text,
      details jsonb not null default '{}'
    );
    create index signature_events_check on signature_events(check_id, at, id);
    `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table signature_events;\ndrop table signature_requests;');
}
