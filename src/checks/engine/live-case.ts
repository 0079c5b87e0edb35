import { type ExpressionBuilder, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * For background work over checks (expiry, AML monitoring): the check's case is not deleted. A
 * soft-deleted case is gone from the API (404) and its `Case.Deleted` was sent; its checks must not
 * go on changing and emitting events (`Check.Expired`, new hits) after that.
 */
export const inLiveCase = (eb: ExpressionBuilder<Database, 'checks'>) =>
  eb.exists(
    eb
      .selectFrom('cases')
      .select(sql`1`.as('one'))
      .whereRef('cases.id', '=', 'checks.case_id')
      .where('cases.deleted_at', 'is', null),
  );
