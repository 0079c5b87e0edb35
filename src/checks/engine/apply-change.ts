import { sql } from 'kysely';
import type { AppContext } from '../../app-context.ts';
import { touchCase } from '../../cases/repository.ts';
import type { Db } from '../../db/connect.ts';
import type { CheckRow } from '../../db/schema.ts';
import { nextVersionStamp } from '../../db/version-stamp.ts';
import { recordEvents, SYSTEM } from '../../events/record-event.ts';
import { recordGeneratedFile } from '../../files/generated-file.ts';
import { ApiError } from '../../http/errors.ts';
import { countCheckResolution } from '../../ops/metrics.ts';
import type { CheckStatus, CheckTypeDefinition, Outcome } from '../check-type.ts';
import { COMMON_TRANSITIONS, findTransition, STATUS_EVENTS } from '../common-transitions.ts';
import { presentCheck } from '../present.ts';
import { refreshCaseAfterCheckChange } from './case-effects.ts';
import { processQueueOf } from './queues.ts';
import { withSystemReviewReason } from './system-review.ts';
import { touchCheckEntity } from './touch-entity.ts';

export class TransitionRefused extends ApiError {}

/** Triggers an API call causes; every other one (provider results, expiry, monitoring) is the engine's. */
const API_TRIGGERS: ReadonlySet<string> = new Set([
  'review',
  'force_review',
  'add_files',
  'submit',
  'sign', // electronic_signature: the signer, through the portal
  'decline',
]);

/** Triggers whose outcome is the caller's own decision (an operator's review, a signer's refusal). */
const CALLER_DECIDES: ReadonlySet<string> = new Set(['review', 'force_review', 'decline']);

const DECIDED: ReadonlySet<string> = new Set(['approved', 'rejected', 'need_review']);

/**
 * Who a status event is recorded for: the caller of an API trigger, except when the call only
 * supplied something (files, a submitted step) and the engine decided on it at once: an approval of
 * a document the contact sent is vericase's, not the client's ("the client approved a check").
 */
function statusActor(trigger: string, status: string) {
  if (!API_TRIGGERS.has(trigger)) return SYSTEM;
  // a signature approved on signing is the signer's act, filed as the reference does under
  // system__approved__check with author_type contact: the console and the case report say "signed
  // the document" from it (docs/console.md, "Activity"); sent to review, it is vericase's
  if (trigger === 'sign' && status === 'approved') return undefined;
  if (DECIDED.has(status) && !CALLER_DECIDES.has(trigger)) return SYSTEM;
  return undefined;
}

/** Throws unless the type's table (or the common one) has the row from → to on this trigger. */
export function assertTransition(
  def: CheckTypeDefinition,
  from: CheckStatus | null,
  trigger: string,
  to: CheckStatus,
) {
  if (
    findTransition(def.transitions, from, trigger, to) ||
    findTransition(COMMON_TRANSITIONS, from, trigger, to)
  )
    return;
  throw new TransitionRefused(
    400,
    `A ${def.type} check cannot go from ${from ?? '(new)'} to ${to} on ${trigger.replaceAll('_', ' ')}`,
  );
}

/**
 * The one place a check changes state: validates the transition, writes the row, its event, the
 * case effects and any follow-up provider job, all in the caller's transaction.
 */
export async function applyOutcome(
  ctx: AppContext,
  trx: Db,
  def: CheckTypeDefinition,
  check: CheckRow,
  outcome: Outcome & { attempt?: number; history?: unknown[] },
): Promise<CheckRow> {
  assertTransition(def, check.status as CheckStatus, outcome.trigger, outcome.status);
  for (const file of outcome.generatedFiles ?? []) await recordGeneratedFile(trx, file, check.case_id);
  const set: Record<string, unknown> = {
    status: outcome.status,
    data: JSON.stringify(withSystemReviewReason(def.type, outcome.status, outcome.data)),
    updated_at: nextVersionStamp(),
    last_activity_at: sql`now()`,
  };
  // the queue's "waiting since": set on entering need_review, kept while it stays there (a hit
  // review or a monitoring update of a waiting check does not send it to the end of the queue)
  if (outcome.status !== check.status) {
    set.need_review_since = outcome.status === 'need_review' ? sql`now()` : null;
  }
  if (outcome.internal) set.internal = JSON.stringify(outcome.internal);
  if (outcome.expiresAt !== undefined) set.expires_at = outcome.expiresAt;
  if (outcome.attempt !== undefined) set.attempt = outcome.attempt;
  if (outcome.history !== undefined) set.history = JSON.stringify(outcome.history);
  const row = await trx
    .updateTable('checks')
    .set(set)
    .where('id', '=', check.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  // counted in the transaction: a rolled-back change (rare: a conflict, an error after it) still counts
  countCheckResolution(def.type, check.status, row.status);
  const newAttempt = outcome.attempt !== undefined && outcome.attempt !== check.attempt;
  // in_progress → processing is the same start (spec: Check.Started again only for a new attempt)
  const sameStart = check.status === 'in_progress' && row.status === 'processing' && !newAttempt;
  // a decided check reviewed again to the same status (override: a person confirms what vericase
  // decided, with a comment) is a decision of its own: its event, hence its activity and its line
  // in the case report, names the reviewer (it left no trace but the check's data)
  const decidedAgain = outcome.trigger === 'review' && row.status === check.status;
  if ((row.status !== check.status || newAttempt || decidedAgain) && !sameStart) {
    await recordEvents(trx, row.workspace_id, [
      {
        type: STATUS_EVENTS[row.status as CheckStatus],
        case_id: row.case_id,
        payload: { check: presentCheck(row) },
        actor: statusActor(outcome.trigger, row.status),
      },
    ]);
  }
  if (outcome.process) {
    await ctx.jobs.send(
      trx,
      processQueueOf(def, ctx.config),
      { checkId: row.id, attempt: row.attempt },
      { startAfter: outcome.process.startAfter },
    );
  }
  await touchCheckEntity(trx, row);
  await refreshCaseAfterCheckChange(ctx, trx, row.workspace_id, row.case_id);
  return row;
}

/** A change of a check's data that is not a change of state (a hit review, a monitoring switch). */
export async function updateCheckData(
  trx: Db,
  check: CheckRow,
  data: Record<string, unknown>,
): Promise<CheckRow> {
  const row = await trx
    .updateTable('checks')
    .set({ data: JSON.stringify(data), updated_at: nextVersionStamp(), last_activity_at: sql`now()` })
    .where('id', '=', check.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await touchCheckEntity(trx, row);
  await touchCase(trx, check.case_id);
  return row;
}
