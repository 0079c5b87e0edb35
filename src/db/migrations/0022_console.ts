import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The operator console (issue 15):
// - users sign in with e-mail and password (password_hash: scrypt, see src/console-auth); roles are
//   `admin`, `reviewer`, `viewer`.
// - console_sessions: one row per signed-in browser. The cookie carries a random token stored here as
//   its SHA-256; the CSRF token is per session. A session ends at expires_at (absolute), after an idle
//   time (last_seen_at), or when revoked (sign-out, user suspended, admin revocation).
// - audit_log: who did what in a workspace, when and from where, for console users and API keys.
// - api_keys gain a name and the user who created one from the console.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table users add column password_changed_at timestamptz;
     alter table users add column last_login_at timestamptz;

     create table console_sessions (
       id uuid primary key,
       workspace_id uuid not null references workspaces(id) on delete cascade,
       user_id uuid not null references users(id) on delete cascade,
       token_hash text not null unique,
       csrf_token text not null,
       created_at timestamptz not null default now(),
       last_seen_at timestamptz not null default now(),
       expires_at timestamptz not null,
       revoked_at timestamptz,
       ip text,
       user_agent text
     );
     create index console_sessions_user on console_sessions(user_id);

     create table audit_log (
       id uuid primary key,
       workspace_id uuid not null references workspaces(id) on delete cascade,
       occurred_at timestamptz not null default now(),
       actor_type text not null,
       actor_id uuid,
       actor_label text,
       action text not null,
       method text,
       route text,
       resource_type text,
       resource_id text,
       status_code integer,
       ip text,
       user_agent text,
       request_id text,
       details jsonb not null default '{}'
     );
     create index audit_log_ws_time on audit_log(workspace_id, occurred_at desc, id desc);
     create index audit_log_ws_actor on audit_log(workspace_id, actor_id, occurred_at desc);

     alter table api_keys add column name text;
     alter table api_keys add column created_by_user_id uuid references users(id) on delete set null;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table api_keys drop column created_by_user_id;
     alter table api_keys drop column name;
     drop table audit_log;
     drop table console_sessions;
     alter table users drop column last_login_at;
     alter table users drop column password_changed_at;`,
  );
}
