import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// A signature's one-time code is bound to where it went: the portal link it was asked through and
// the e-mail address it was sent to. When the signer's e-mail changes or that link is withdrawn, the
// code stops working (sign.ts): a code mailed to a former address, or asked for through a link the
// operator withdrew, must not sign. Codes sent before this migration have neither (null) and keep
// their old rule until they expire (ten minutes).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table signature_requests add column code_link_id uuid;
     alter table signature_requests add column code_email text;`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table signature_requests drop column code_link_id;
     alter table signature_requests drop column code_email;`,
  );
}
