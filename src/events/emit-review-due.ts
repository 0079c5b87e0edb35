import { sql } from 'kysely';
import { presentCase } from '../cases/present.ts';
import type { Db } from '../db/connect.ts';
import type { CaseRow } from '../db/schema.ts';
import { recordEvents, SYSTEM } from './record-event.ts';

/**
 * Emits `Case.ReviewDue` once per case and `next_review_at` value once that day (UTC) has come.
 * What was emitted is remembered in case_review_due_emissions, so a later review that sets a new
 * date makes the case due again on that date. Returns the number of events emitted.
 */
export async function emitDueReviews(
  db: Db,
  opts: { today?: string; workspaceId?: string } = {},
): Promise<number> {
  const today = opts.today ?? new Date().toISOString().slice(0, 10);
  const inWorkspace = opts.workspaceId ? sql`and c.workspace_id = ${opts.workspaceId}` : sql``;
  let total = 0;
  for (;;) {
    const n = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<CaseRow>`
        select c.* from cases c
        where c.next_review_at is not null and c.deleted_at is null and c.next_review_at <= ${today} ${inWorkspace}
          and not exists (
            select 1 from case_review_due_emissions e
            where e.case_id = c.id and e.next_review_at = c.next_review_at
          )
        order by c.next_review_at, c.id
        limit 500
        for update of c skip locked
      `.execute(trx);
      const byWorkspace = new Map<string, CaseRow[]>();
      for (const c of rows) byWorkspace.set(c.workspace_id, [...(byWorkspace.get(c.workspace_id) ?? []), c]);
      for (const [workspaceId, cases] of byWorkspace) {
        await recordEvents(
          trx,
          workspaceId,
          cases.map((c) => ({
            type: 'Case.ReviewDue',
            case_id: c.id,
            payload: { case: presentCase(c) },
            actor: SYSTEM,
          })),
        );
      }
      if (rows.length) {
        await trx
          .insertInto('case_review_due_emissions')
          .values(rows.map((c) => ({ case_id: c.id, next_review_at: c.next_review_at as string })))
          .onConflict((oc) =>
            oc.column('case_id').doUpdateSet({
              next_review_at: (eb) => eb.ref('excluded.next_review_at'),
              emitted_at: sql`now()`,
            }),
          )
          .execute();
      }
      return rows.length;
    });
    total += n;
    if (n < 500) return total;
  }
}
