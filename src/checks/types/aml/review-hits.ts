import type { AppContext } from '../../../app-context.ts';
import { transactionNow } from '../../../db/transaction-now.ts';
import { recordEvents } from '../../../events/record-event.ts';
import { assertVersion, type IfMatch } from '../../../http/conditional.ts';
import { ApiError, badRequest, notFound } from '../../../http/errors.ts';
import { commentOrNull } from '../../../shared/comment-or-null.ts';
import type { NestedUserOut } from '../../../users/nested-user.ts';
import { updateCheckData } from '../../engine/apply-change.ts';
import { presentCheck } from '../../present.ts';
import { findCheck } from '../../repository.ts';
import { hitsListTypes, live, matchStatus } from './hits.ts';
import type { AmlDataOut, AmlHitOut, ReviewHitsInput } from './schemas.ts';

/**
 * Confirms (true_positive) or ignores (false_positive) hits of an aml check, reviewer_type `api`
 * (or `user` with the console user given).
 * Every id must be a hit of this check (400 naming each unknown one). The check's status does not
 * change here: the check itself is reviewed with PATCH .../review once no hit is pending. Hits are
 * reviewed while the check needs review: once it is decided, its hits are the record of what the
 * decision was taken on, so they stay as they were (400 naming `status`); monitoring that brings
 * new hits puts the check back in need_review, and their review opens again. `condition` (the
 * request's If-Match) is compared with the locked check first: a hit decided meanwhile by someone
 * else is a 412, not overwritten by a tab that still showed it pending.
 */
export async function reviewAmlHits(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  input: ReviewHitsInput,
  /** A console user reviewing (reviewer_type `user`, kept as named now); null: by API. */
  user: NestedUserOut | null = null,
  condition?: IfMatch,
) {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, workspaceId, id, true);
    if (check?.type !== 'aml') throw notFound('aml check');
    assertVersion(condition, check.updated_at, 'check');
    if (check.status !== 'need_review') {
      throw badRequest(
        `The check is ${check.status}: its hits can be reviewed while it is need_review`,
        'status',
      );
    }
    const data = check.data as unknown as AmlDataOut;
    const known = new Set(data.hits.map((h) => h.id));
    const unknown = input.hit_ids.map((hitId, i) => ({ hitId, i })).filter(({ hitId }) => !known.has(hitId));
    if (unknown.length) {
      throw new ApiError(
        400,
        `Unknown hit id${unknown.length > 1 ? 's' : ''} for this check: ${unknown.map((u) => u.hitId).join(', ')}`,
        unknown.map(({ hitId, i }) => ({
          path: `hit_ids[${i}]`,
          message: `${hitId} is not a hit of this check`,
        })),
      );
    }
    // a hit monitoring no longer finds on the lists is the record of what was decided before: a
    // confirmation of it would make a true match of nobody listed (the check's match status, over the
    // listed hits, stayed no_match)
    const byId = new Map(data.hits.map((h) => [h.id, h]));
    const gone = input.hit_ids
      .map((hitId, i) => ({ hit: byId.get(hitId) as AmlHitOut, i }))
      .filter(({ hit }) => !live(hit));
    if (gone.length) {
      throw new ApiError(
        400,
        `${gone.length > 1 ? 'These hits are' : 'This hit is'} no longer on the lists (removed by monitoring): ${gone.map((g) => g.hit.id).join(', ')}`,
        gone.map(({ hit, i }) => ({
          path: `hit_ids[${i}]`,
          message: `${hit.id} (${hit.name}) was removed from the lists on ${hit.vendor.updated_by_monitoring_at}`,
        })),
      );
    }
    const ids = new Set(input.hit_ids);
    const review = {
      comment: commentOrNull(input.comment),
      // the transaction's time, as the check's updated_at: not a few ms after it
      reviewed_at: (await transactionNow(trx)).toISOString(),
      reviewer_type: user ? ('user' as const) : ('api' as const),
      user,
    };
    const status = input.action === 'confirm' ? ('true_positive' as const) : ('false_positive' as const);
    const hits = data.hits.map((h) => (ids.has(h.id) ? { ...h, status, review } : h));
    const next: AmlDataOut = {
      ...data,
      hits,
      match_status: matchStatus(hits),
      hits_list_types: hitsListTypes(hits),
    };
    // a decision given again (the same status and reason) changes nothing worth a second activity
    const decided = data.hits.filter(
      (h) => ids.has(h.id) && (h.status !== status || h.review.comment !== review.comment),
    );
    const updated = await updateCheckData(trx, check, next as unknown as Record<string, unknown>);
    if (!decided.length) return updated;
    // the decision in the case's activities (`api__confirmed__aml_hit`, ...), which hits it was
    // about in `context.aml_hit_ids`; the reference has no webhook event for it
    await recordEvents(trx, workspaceId, [
      {
        type: input.action === 'confirm' ? 'AmlHit.Confirmed' : 'AmlHit.Ignored',
        case_id: check.case_id,
        payload: {
          check: {
            id: check.id,
            type: 'aml',
            subtype: null,
            company_id: check.company_id,
            individual_id: check.individual_id,
          },
          aml_hit_ids: decided.map((h) => h.id).join(','),
        },
      },
    ]);
    return updated;
  });
  return presentCheck(row);
}
