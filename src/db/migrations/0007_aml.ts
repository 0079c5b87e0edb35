import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// AML screening: a log of the sanctions-list versions each process loaded (checks record the versions
// they were screened against; a new version set triggers the re-screening of monitored aml checks), and
// an index to find monitored aml checks without scanning every check.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `
    create table screening_list_loads (
      id uuid primary key,
      versions_key text not null,
      lists jsonb not null,
      reference_dir text,
      process text not null,
      loaded_at timestamptz not null default now()
    );
    create index screening_list_loads_loaded_at on screening_list_loads(loaded_at);
    create index checks_aml_monitored on checks(id)
      where type = 'aml' and (data->'vendor'->>'is_search_monitored') = 'true'
  `,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop index checks_aml_monitored;\ndrop table screening_list_loads');
}
