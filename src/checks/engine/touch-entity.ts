import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';
import type { CheckRow } from '../../db/schema.ts';

/**
 * Marks activity on the company or individual a check is about, in the check change's transaction:
 * its `last_activity_at` ("latest activity date") moves with every change of its checks, as the
 * case's does, so `GET /v1/individuals?last_activity_at.gte=` finds a person whose check was just
 * decided. Its `updated_at` stays: none of its own fields changed.
 */
export async function touchCheckEntity(
  trx: Db,
  check: Pick<CheckRow, 'company_id' | 'individual_id'>,
): Promise<void> {
  if (check.company_id) {
    await trx
      .updateTable('companies')
      .set({ last_activity_at: sql`now()` })
      .where('id', '=', check.company_id)
      .execute();
  } else if (check.individual_id) {
    await trx
      .updateTable('individuals')
      .set({ last_activity_at: sql`now()` })
      .where('id', '=', check.individual_id)
      .execute();
  }
}
