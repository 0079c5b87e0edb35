import type { Kysely } from 'kysely';
import { runStatements } from '../run-statements.ts';

// A webhook chooses how its deliveries are signed: Standard Webhooks (default) or, for receivers
// written for the reference product, the raw body's hex HMAC-SHA256 in a header of its choosing.
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table webhooks add column signature text not null default 'standard_webhooks';
     alter table webhooks add column signature_header text`,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    `alter table webhooks drop column signature_header;
     alter table webhooks drop column signature`,
  );
}
