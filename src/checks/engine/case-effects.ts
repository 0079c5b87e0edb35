import { sql } from 'kysely';
import type { AppContext } from '../../app-context.ts';
import { presentCase } from '../../cases/present.ts';
import type { Db } from '../../db/connect.ts';
import { recordEvents } from '../../events/record-event.ts';

/**
 * After any change to a case's checks (same transaction): the case's reviewer_has_actions, its
 * check-derived flags and last_activity_at follow, and template auto-approval gets its chance.
 */
export async function refreshCaseAfterCheckChange(
  ctx: AppContext,
  trx: Db,
  workspaceId: string,
  caseId: string,
) {
  // lock the case first: concurrent check changes of one case then compute its flags one at a time
  const before = await trx
    .selectFrom('cases')
    .selectAll()
    .where('id', '=', caseId)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
  const stats = await sql<{ total: string; need_review: string; approved: string }>`
    select count(*) as total,
      count(*) filter (where status = 'need_review') as need_review,
      count(*) filter (where status = 'approved') as approved
    from checks where case_id = ${caseId}
  `.execute(trx);
  const s = stats.rows[0];
  const total = Number(s.total);
  const needReview = Number(s.need_review) > 0;
  const allApproved = total > 0 && Number(s.approved) === total;
  const kept = before.flags.filter((f) => f !== 'all_checks_approved' && f !== 'for_review');
  const flags = [
    ...kept,
    ...(allApproved ? ['all_checks_approved'] : []),
    ...(needReview ? ['for_review'] : []),
  ];
  const flagsChanged = JSON.stringify([...flags].sort()) !== JSON.stringify([...before.flags].sort());
  const after = await trx
    .updateTable('cases')
    .set({ reviewer_has_actions: needReview, flags, last_activity_at: sql`now()` })
    .where('id', '=', caseId)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (flagsChanged) {
    await recordEvents(trx, workspaceId, [
      {
        type: 'Case.Updated',
        sub_event: 'Case.FlagsUpdated',
        case_id: caseId,
        payload: { case: presentCase(after) },
      },
    ]);
  }
  if (ctx.hooks.afterCaseChecksChanged) await ctx.hooks.afterCaseChecksChanged(trx, after);
}
