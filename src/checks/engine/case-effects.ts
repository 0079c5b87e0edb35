import { sql } from 'kysely';
import type { AppContext } from '../../app-context.ts';
import { presentCase } from '../../cases/present.ts';
import { triggerWaitStep } from '../../client-portals/wait-steps.ts';
import type { Db } from '../../db/connect.ts';
import type { CaseRow } from '../../db/schema.ts';
import { nextVersionStamp } from '../../db/version-stamp.ts';
import { type DomainEvent, recordEvents, SYSTEM } from '../../events/record-event.ts';
import { CHECK_TYPE_DEFINITIONS } from '../registry.ts';
import { nextCaseFlags } from './case-flags.ts';

/**
 * Transactions creating several checks at once (a template run): the case is refreshed once, after
 * the last check, instead of after each. Refreshing after each recorded the intermediate states as
 * events: a case created with a template whose first check is approved synchronously (ekyc) and
 * whose second is still processing got `Case.FlagsUpdated` with `all_checks_approved`, then another
 * with `[]`, though neither change was ever visible outside the transaction.
 */
const deferred = new WeakMap<object, Map<string, { ctx: AppContext; workspaceId: string }>>();

export async function withCaseRefreshDeferred<T>(trx: Db, fn: () => Promise<T>): Promise<T> {
  if (deferred.has(trx)) return fn();
  const pending = new Map<string, { ctx: AppContext; workspaceId: string }>();
  deferred.set(trx, pending);
  let result: T;
  try {
    result = await fn();
  } finally {
    deferred.delete(trx);
  }
  for (const [caseId, { ctx, workspaceId }] of pending) {
    await refreshCaseAfterCheckChange(ctx, trx, workspaceId, caseId);
  }
  return result;
}

/**
 * The checks a contact's portal shows that wait for the contact (`checks k` joined to its
 * `individuals i`): not internal, in_progress or (a type the portal offers again) rejected or
 * expired, of a type every contact sees, or of a type a contact sees on their own entity
 * (portal-action.ts).
 */
function contactWaitsOn() {
  const forAnyContact = CHECK_TYPE_DEFINITIONS.filter((d) => d.portal?.audience === 'every_contact').map(
    (d) => d.type,
  );
  const forOwnChecks = CHECK_TYPE_DEFINITIONS.filter((d) => d.portal?.audience === 'own_checks').map(
    (d) => d.type,
  );
  // the portal asks for a new attempt of a rejected (or expired) check of a type the contact
  // supplies, unless its rejection is final (a declined signature): that waits for them too
  const retakable = CHECK_TYPE_DEFINITIONS.filter((d) => d.portal && d.collectsData && !d.finalRejection).map(
    (d) => d.type,
  );
  return sql<boolean>`not k.is_internal
    and (k.status = 'in_progress'
      or (k.status in ('rejected', 'expired') and k.type = any(${retakable}::text[])))
    and (k.type = any(${forAnyContact}::text[])
      or (k.type = any(${forOwnChecks}::text[]) and i.is_business_contact))`;
}

/**
 * contact_has_actions of a case whose status changes to `status` (a review, a PATCH), which moves
 * the flag without any check changing: false once closed (its portal links are revoked), counted
 * from its checks again when it leaves `closed`, else unchanged.
 */
export async function contactHasActionsFor(
  trx: Db,
  kase: Pick<CaseRow, 'id' | 'status' | 'contact_has_actions'>,
  status: string,
): Promise<boolean> {
  if (status === 'closed') return false;
  if (kase.status === 'closed') return contactHasActionsOf(trx, kase.id);
  return kase.contact_has_actions;
}

/** contact_has_actions from the case's checks, as the refresh below computes it (case not closed). */
async function contactHasActionsOf(trx: Db, caseId: string): Promise<boolean> {
  const row = await sql<{ waiting: boolean }>`
    select exists (
      select 1 from checks k
      left join companies co on co.id = k.company_id
      left join individuals i on i.id = k.individual_id
      where k.case_id = ${caseId} and coalesce(co.is_relevant, i.is_relevant, true) and ${contactWaitsOn()}
    ) as waiting
  `.execute(trx);
  return row.rows[0].waiting;
}

/**
 * After any change to a case's checks (same transaction): the case's reviewer_has_actions,
 * contact_has_actions, its check-derived flags and last_activity_at follow, the client portal's
 * next wait step triggers when the contact has just run out of things to supply, and template
 * auto-approval gets its chance.
 */
export async function refreshCaseAfterCheckChange(
  ctx: AppContext,
  trx: Db,
  workspaceId: string,
  caseId: string,
) {
  const pending = deferred.get(trx);
  if (pending) {
    pending.set(caseId, { ctx, workspaceId });
    return;
  }
  // lock the case first: concurrent check changes of one case then compute its flags one at a time
  const before = await trx
    .selectFrom('cases')
    .selectAll()
    .where('id', '=', caseId)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
  const collecting = CHECK_TYPE_DEFINITIONS.filter((d) => d.collectsData).map((d) => d.type);
  // what a contact's portal shows: checks of every entity, or a contact's own ones (portal-action.ts)
  const retakable = CHECK_TYPE_DEFINITIONS.filter((d) => d.collectsData && !d.finalRejection).map(
    (d) => d.type,
  );
  // checks of entities marked not relevant do not count
  const stats = await sql<
    Record<'total' | 'need_review' | 'approved' | 'first' | 'again' | 'collected' | 'contact_todo', string>
  >`
    select count(*) as total,
      count(*) filter (where k.status = 'need_review') as need_review,
      count(*) filter (where k.status = 'approved') as approved,
      count(*) filter (where k.type = any(${collecting}::text[]) and k.status = 'in_progress'
        and jsonb_array_length(k.history) = 0) as first,
      count(*) filter (where (k.type = any(${retakable}::text[]) and k.status = 'rejected')
        or (k.type = any(${collecting}::text[]) and k.status = 'in_progress'
          and jsonb_array_length(k.history) > 0)) as again,
      count(*) filter (where k.type = any(${collecting}::text[])
        and (k.status <> 'in_progress' or jsonb_array_length(k.history) > 0)) as collected,
      count(*) filter (where ${contactWaitsOn()}) as contact_todo
    from checks k
    left join companies co on co.id = k.company_id
    left join individuals i on i.id = k.individual_id
    where k.case_id = ${caseId} and coalesce(co.is_relevant, i.is_relevant, true)
  `.execute(trx);
  const s = stats.rows[0];
  const needReview = Number(s.need_review) > 0;
  // a contact has something to supply while a check their portal shows waits for it, unless the
  // case is closed: closing revoked its portal links, so nothing is awaited from anyone
  const contactHasActions = before.status !== 'closed' && Number(s.contact_todo) > 0;
  const flags = nextCaseFlags(before.flags, {
    total: Number(s.total),
    needReview: Number(s.need_review),
    approved: Number(s.approved),
    firstCollect: Number(s.first),
    recollection: Number(s.again),
    collected: Number(s.collected),
  });
  const flagsChanged = JSON.stringify([...flags].sort()) !== JSON.stringify([...before.flags].sort());
  // a change of the case's own fields moves its updated_at: receivers order payloads by it
  const caseChanged =
    flagsChanged ||
    before.reviewer_has_actions !== needReview ||
    before.contact_has_actions !== contactHasActions;
  let after = await trx
    .updateTable('cases')
    .set({
      reviewer_has_actions: needReview,
      contact_has_actions: contactHasActions,
      flags,
      last_activity_at: sql`now()`,
      ...(caseChanged ? { updated_at: nextVersionStamp() } : {}),
    })
    .where('id', '=', caseId)
    .returningAll()
    .executeTakeFirstOrThrow();
  const events: DomainEvent[] = [];
  const caseUpdated = (sub: string): DomainEvent => ({
    type: 'Case.Updated',
    sub_event: sub,
    case_id: caseId,
    payload: { case: presentCase(after) },
    actor: SYSTEM,
  });
  if (flagsChanged) events.push(caseUpdated('Case.FlagsUpdated'));
  if (before.reviewer_has_actions !== needReview) events.push(caseUpdated('Case.ReviewerHasActionsUpdated'));
  if (before.contact_has_actions !== contactHasActions) {
    events.push(caseUpdated('Case.ContactHasActionsUpdated'));
    // (a closed case waits on no step: its contact did not finish, the case did)
    if (!contactHasActions && before.status !== 'closed') {
      const waiting = await triggerWaitStep(trx, after);
      after = waiting.caseRow;
      if (waiting.event) events.push(waiting.event);
    }
  }
  await recordEvents(trx, workspaceId, events);
  if (ctx.hooks.afterCaseChecksChanged) await ctx.hooks.afterCaseChecksChanged(trx, after);
}
