import { CASE_FLAGS } from '../../cases/schemas.ts';

/**
 * The case flags that follow its checks (the reference product's set). Clients decide what to ask
 * of the contact, and what to e-mail, from them:
 * - `for_review`: a relevant check is `need_review`;
 * - `all_checks_approved`: the case has relevant checks and every one is `approved`;
 * - `for_first_collect`: a relevant check whose data the contact supplies is `in_progress` and has
 *   never received any (no earlier attempt);
 * - `for_recollection`: such a check was rejected and can take new data (`rejected`), or waits in a
 *   new attempt after a rejection (`in_progress` with history);
 * - `first_collect_completed`: set once `for_first_collect` clears while a relevant check of the
 *   contact's has moved past its first wait (it got its data, or a decision); kept afterwards. A
 *   first collect that ends only because its checks were deleted or their entities set aside (not
 *   relevant, deleted) collected nothing, and sets nothing (walk 56-B).
 * Flags the engine does not own (none yet) are kept as they are.
 */
export const CHECK_FLAGS = [
  'for_review',
  'all_checks_approved',
  'for_first_collect',
  'for_recollection',
] as const;
export const FIRST_COLLECT_COMPLETED = 'first_collect_completed';

export interface CheckCounts {
  total: number;
  needReview: number;
  approved: number;
  firstCollect: number;
  recollection: number;
  /** Relevant checks whose data the contact supplies that are past their first wait. */
  collected: number;
}

export function nextCaseFlags(before: readonly string[], c: CheckCounts): string[] {
  const owned = new Set<string>(CHECK_FLAGS);
  const flags = before.filter((f) => !owned.has(f));
  if (c.needReview > 0) flags.push('for_review');
  if (c.total > 0 && c.approved === c.total) flags.push('all_checks_approved');
  if (c.firstCollect > 0) flags.push('for_first_collect');
  if (c.recollection > 0) flags.push('for_recollection');
  if (
    before.includes('for_first_collect') &&
    c.firstCollect === 0 &&
    c.collected > 0 &&
    !flags.includes(FIRST_COLLECT_COMPLETED)
  )
    flags.push(FIRST_COLLECT_COMPLETED);
  // one order whatever the history (the order of CASE_FLAGS): two cases with the same flags show
  // the same array, and a client comparing arrays sees no change where there is none
  return flags.sort((a, b) => rank(a) - rank(b));
}

const rank = (flag: string) => {
  const i = (CASE_FLAGS as readonly string[]).indexOf(flag);
  return i === -1 ? CASE_FLAGS.length : i;
};
