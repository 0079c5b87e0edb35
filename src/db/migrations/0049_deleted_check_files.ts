import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// The files a case held through checks since deleted. The case's files are found by reading its
// checks (src/cases/case-files.ts), so a check deleted on its own, or with its company or
// individual, took the knowledge of its files with it: erasing the case left them downloadable,
// and soft deleting it left them served. A check's deletion now records its files here, in its
// transaction; the rows go with the case (erased) or with the file. Checks deleted before this
// migration are gone: their files cannot be found from here.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `create table deleted_check_files (
       case_id uuid not null references cases(id) on delete cascade,
       file_id uuid not null references files(id) on delete cascade,
       primary key (case_id, file_id)
     );
     create index deleted_check_files_file on deleted_check_files(file_id);`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, 'drop table deleted_check_files;');
}
