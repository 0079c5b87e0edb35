/**
 * Monitoring: when the loaded list versions change, every monitored aml check is screened again (one
 * job per check) and new, updated and removed hits are marked; a check whose hits changed goes back to
 * need_review with its event.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../../app-context.ts';
import { recordEvents, SYSTEM } from '../../../events/record-event.ts';
import { latestListLoad } from '../../../screening/service/list-loads.ts';
import { applyOutcome } from '../../engine/apply-change.ts';
import { presentCheck } from '../../present.ts';
import { loadTarget, lockCheckById } from '../../repository.ts';
import { hitsListTypes, matchStatus, mergeRescreen } from './hits.ts';
import { amlCheck } from './index.ts';
import type { AmlDataOut } from './schemas.ts';
import { resultsCountOf, screenSubject, subjectOf } from './screen.ts';

export const MONITORING_QUEUE = 'aml.monitoring';
export const RESCREEN_QUEUE = 'aml.rescreen';

/** Statuses a monitored check is re-screened in (processing ones are screened by their own job). */
const MONITORED_STATUSES = ['approved', 'rejected', 'need_review'] as const;

/**
 * Fan-out after a list version change: one re-screening job per monitored aml check. A process whose
 * index is not yet on the new versions reloads first; if it still differs and those versions are the
 * latest recorded, the job fails and is retried; if newer versions were recorded since, it is stale.
 */
export async function startMonitoringRun(ctx: AppContext, data: { versionsKey: string }): Promise<number> {
  const service = ctx.screening;
  if (!service) return 0;
  if (service.versionsKey !== data.versionsKey) {
    await service.checkForChanges();
    await service.whenSettled();
    if (service.versionsKey !== data.versionsKey) {
      const latest = await latestListLoad(ctx.db);
      if (latest?.versions_key === data.versionsKey) {
        throw new Error(`lists ${data.versionsKey} are not loaded in this process yet`);
      }
      return 0;
    }
  }
  const rows = await ctx.db
    .selectFrom('checks')
    .select('id')
    .where('type', '=', 'aml')
    .where(sql<boolean>`(data->'vendor'->>'is_search_monitored') = 'true'`)
    .where('status', 'in', [...MONITORED_STATUSES])
    .execute();
  for (const r of rows) {
    await ctx.jobs.sendNow(
      RESCREEN_QUEUE,
      { checkId: r.id, versionsKey: data.versionsKey },
      { singletonKey: `${r.id}:${data.versionsKey}` },
    );
  }
  return rows.length;
}

/** Re-screens one monitored check with the current lists and applies what changed. */
export async function rescreenCheck(ctx: AppContext, data: { checkId: string }): Promise<void> {
  const snapshot = await ctx.db
    .selectFrom('checks')
    .selectAll()
    .where('id', '=', data.checkId)
    .executeTakeFirst();
  if (snapshot?.type !== 'aml') return;
  const current = snapshot.data as unknown as AmlDataOut;
  if (!current.vendor?.is_search_monitored) return;
  if (!(MONITORED_STATUSES as readonly string[]).includes(snapshot.status)) return;
  const target = await loadTarget(ctx.db, snapshot);
  const subject = subjectOf(target);
  const result = await screenSubject(ctx, subject, current.settings);
  if (!result.ok) throw new Error(result.message); // retried: lists are expected back
  await ctx.db.transaction().execute(async (trx) => {
    const check = await lockCheckById(trx, data.checkId);
    if (!check || !(MONITORED_STATUSES as readonly string[]).includes(check.status)) return;
    const before = check.data as unknown as AmlDataOut;
    if (!before.vendor?.is_search_monitored) return;
    const now = new Date().toISOString();
    const merge = mergeRescreen(before.hits ?? [], result.matches, now);
    const vendor = {
      ...before.vendor,
      list_versions: result.listVersions,
      results_count: resultsCountOf(result.matches),
      monitored_at: now,
    };
    const changed = merge.added + merge.updated + merge.removed > 0;
    const wasError = before.result === 'error';
    if (!changed && !wasError) {
      await trx
        .updateTable('checks')
        .set({ data: JSON.stringify({ ...before, vendor }) })
        .where('id', '=', check.id)
        .execute();
      return;
    }
    const next: AmlDataOut = {
      ...before,
      subject,
      vendor,
      hits: merge.hits,
      match_status: matchStatus(merge.hits),
      hits_list_types: hitsListTypes(merge.hits),
    };
    if (wasError && !merge.hits.length) {
      await applyOutcome(ctx, trx, amlCheck, check, {
        trigger: 'monitoring_update',
        status: 'approved',
        data: {
          ...next,
          result: 'approved',
          review: { comment: null, reviewed_at: now, reviewer_type: 'system', user: null },
        },
      });
      return;
    }
    const row = await applyOutcome(ctx, trx, amlCheck, check, {
      trigger: 'monitoring_update',
      status: 'need_review',
      data: {
        ...next,
        result: null,
        review: {
          comment: `Monitoring after a list version change: ${merge.added} new, ${merge.updated} updated, ${merge.removed} removed hit(s)`,
          reviewed_at: null,
          reviewer_type: null,
          user: null,
        },
      },
    });
    // applyOutcome emits the status event on a status change; a check already in need_review
    // announces the new review work too.
    if (check.status === 'need_review') {
      await recordEvents(trx, row.workspace_id, [
        {
          type: 'Check.ReviewNeeded',
          case_id: row.case_id,
          payload: { check: presentCheck(row) },
          actor: SYSTEM,
        },
      ]);
    }
  });
}
