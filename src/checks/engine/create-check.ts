import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context.ts';
import { lockCase } from '../../cases/repository.ts';
import { findCompany } from '../../companies/repository.ts';
import type { Db } from '../../db/connect.ts';
import type { CheckRow } from '../../db/schema.ts';
import { type DomainEvent, recordEvents, SYSTEM } from '../../events/record-event.ts';
import { badRequest, notFound } from '../../http/errors.ts';
import { findIndividual } from '../../individuals/repository.ts';
import { countCheckResolution } from '../../ops/metrics.ts';
import { getSettings } from '../../settings/repository.ts';
import { UUID_RE } from '../../shared/pg-errors.ts';
import { noteCreatedResource } from '../../shared/request-scope.ts';
import type { CheckStatus, CheckTarget, CheckTypeDefinition, CreatePlan } from '../check-type.ts';
import { STATUS_EVENTS } from '../common-transitions.ts';
import { presentCheck } from '../present.ts';
import { emptyReview } from '../review-data.ts';
import { assertTransition } from './apply-change.ts';
import { refreshCaseAfterCheckChange } from './case-effects.ts';
import { assertUnderCheckLimit, checkLimitOf, countCheck } from './check-limit.ts';
import { processQueueOf } from './queues.ts';
import { withSystemReviewReason } from './system-review.ts';
import { touchCheckEntity } from './touch-entity.ts';

/** Statuses a check starts in: a check created in another one was decided in the same request. */
const STARTED: ReadonlySet<string> = new Set(['in_progress', 'processing']);

/**
 * The check as it was when it started, for the Check.Started of a check decided in the request that
 * created it (ekyc, fraud_database, company_monitoring...): `processing` (its data submitted and
 * being verified, per the spec's statuses) with its data before the provider's answer. Its
 * Check.Started used to carry the final check (status `approved` and the decision), the same
 * object as the Check.Approved that followed it: each event shows the check as of that event.
 */
function presentAtStart(row: CheckRow, plan: CreatePlan) {
  const data = plan.startedData ?? { ...plan.data };
  if (!plan.startedData) {
    if ('result' in data) data.result = null;
    if ('review' in data) data.review = emptyReview();
  }
  return { ...presentCheck(row), status: 'processing', data };
}

async function resolveTarget(
  trx: Db,
  workspaceId: string,
  def: CheckTypeDefinition,
  body: Record<string, unknown>,
) {
  const individualId = body.individual_id as string | undefined;
  const companyId = body.company_id as string | undefined;
  if (individualId && companyId) throw badRequest('Give individual_id or company_id, not both', 'company_id');
  const kind = individualId ? 'individual' : companyId ? 'company' : null;
  if (!kind) {
    // a type that takes either names both (fraud_database, aml...): "individual_id is required"
    // alone hid that a company_id would do
    const fields = def.targets.map((t) => `${t}_id`);
    throw badRequest(`${fields.join(' or ')} is required`, fields[0]);
  }
  if (!def.targets.includes(kind)) {
    throw badRequest(`A ${def.type} check targets ${def.targets.join(' or ')}s only`, `${kind}_id`);
  }
  const id = (individualId ?? companyId) as string;
  if (!UUID_RE.test(id)) throw badRequest(`${kind}_id must be a UUID`, `${kind}_id`);
  const row =
    kind === 'individual'
      ? await findIndividual(trx, workspaceId, id)
      : await findCompany(trx, workspaceId, id);
  if (!row) throw notFound(kind === 'individual' ? 'Individual' : 'Company', `${kind}_id`);
  return { kind, row } as CheckTarget;
}

/**
 * Creates a check inside the caller's transaction (the API's, or a template run's): target,
 * monthly check limit, the type's plan, the row, its events, the provider job and the case effects.
 */
export async function createCheckInTransaction(
  ctx: AppContext,
  trx: Db,
  workspaceId: string,
  def: CheckTypeDefinition,
  body: Record<string, unknown>,
  /**
   * `bySystem`: the engine starts it on its own (a scheduled job), not an API call. `id`: the
   * caller's (a template run's ascending ids, so its checks read back in the template's order).
   */
  opts: { templateId?: string | null; bySystem?: boolean; id?: string } = {},
): Promise<CheckRow> {
  const settings = await getSettings(trx, workspaceId);
  const limit = checkLimitOf(settings.checks as Record<string, unknown>);
  if (!opts.bySystem) await assertUnderCheckLimit(trx, workspaceId, limit);
  const target = await resolveTarget(trx, workspaceId, def, body);
  // the case first, as every write under a case does: inserting the check (a key share on the case)
  // before the case lock of the case effects deadlocked with a permanent case delete on PostgreSQL
  if (!(await lockCase(trx, workspaceId, target.row.case_id)))
    throw notFound(target.kind === 'individual' ? 'Individual' : 'Company');
  // read again under the case's lock: a delete of the target (it takes the same lock) that committed
  // meanwhile makes this a 404; inserting the check against it was a foreign-key violation (a 500)
  const stillThere = await trx
    .selectFrom(target.kind === 'individual' ? 'individuals' : 'companies')
    .select('id')
    .where('id', '=', target.row.id)
    .executeTakeFirst();
  if (!stillThere)
    throw notFound(target.kind === 'individual' ? 'Individual' : 'Company', `${target.kind}_id`);
  const id = opts.id ?? randomUUID();
  noteCreatedResource(id);
  const plan = await def.create({
    ctx,
    trx,
    workspaceId,
    checkId: id,
    target,
    body,
    workspaceTypeSettings: ((settings.checks as Record<string, unknown>)[def.type] ?? {}) as Record<
      string,
      unknown
    >,
    workspaceSettings: settings,
  });
  assertTransition(def, null, plan.trigger ?? 'create', plan.status);
  // counted last, so the counter row is locked for the shortest time; a check the system starts
  // on its own (a monitoring pass) is counted but never refused
  await countCheck(trx, workspaceId, limit, { force: opts.bySystem });
  const inserted = await trx
    .insertInto('checks')
    .values({
      id,
      workspace_id: workspaceId,
      case_id: target.row.case_id,
      company_id: target.kind === 'company' ? target.row.id : null,
      individual_id: target.kind === 'individual' ? target.row.id : null,
      type: def.type,
      status: plan.status,
      subtype: plan.subtype ?? null,
      is_internal: plan.isInternal ?? def.isInternal,
      data: JSON.stringify(withSystemReviewReason(def.type, plan.status, plan.data)),
      internal: JSON.stringify(plan.internal ?? {}),
      history: JSON.stringify([]),
      template_id: opts.templateId ?? null,
      expires_at: plan.expiresAt ?? null,
      need_review_since: plan.status === 'need_review' ? sql`now()` : null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  const row = def.afterCreate ? await def.afterCreate({ ctx, trx, check: inserted }) : inserted;
  // a check decided at creation (ekyc answers synchronously) is a resolution like any other
  countCheckResolution(def.type, null, row.status);
  const full = presentCheck(row);
  // a template's check is started by the system on the template's behalf; a status decided at
  // creation (a synchronous provider answer) is the engine's
  const starter = opts.templateId
    ? { type: 'system' as const, id: opts.templateId }
    : opts.bySystem
      ? SYSTEM
      : undefined;
  const started = STARTED.has(row.status) ? full : presentAtStart(row, plan);
  const events: DomainEvent[] = [
    { type: 'Check.Started', case_id: row.case_id, payload: { check: started }, actor: starter },
  ];
  const statusEvent = STATUS_EVENTS[row.status as CheckStatus];
  if (statusEvent !== 'Check.Started')
    events.push({ type: statusEvent, case_id: row.case_id, payload: { check: full }, actor: SYSTEM });
  await recordEvents(trx, workspaceId, events);
  if (plan.process) {
    await ctx.jobs.send(
      trx,
      processQueueOf(def, ctx.config),
      { checkId: id, attempt: 1 },
      { startAfter: plan.process.startAfter },
    );
  }
  await touchCheckEntity(trx, row);
  await refreshCaseAfterCheckChange(ctx, trx, workspaceId, row.case_id);
  return row;
}

export async function createCheck(
  ctx: AppContext,
  workspaceId: string,
  def: CheckTypeDefinition,
  body: Record<string, unknown>,
) {
  const row = await ctx.db
    .transaction()
    .execute((trx) => createCheckInTransaction(ctx, trx, workspaceId, def, body));
  return presentCheck(row);
}
