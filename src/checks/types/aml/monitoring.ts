/**
 * Monitoring: when the loaded list versions change, every monitored aml check is screened again (one
 * job per check) and new, updated and removed hits are marked; a check with a hit to decide again (new,
 * removed, or a false positive the list now fits better) goes back to need_review with its event.
 */
import { sql } from 'kysely';
import type { AppContext } from '../../../app-context.ts';
import { recordEvents, SYSTEM } from '../../../events/record-event.ts';
import { latestListLoad } from '../../../screening/service/list-loads.ts';
import { applyOutcome, updateCheckData } from '../../engine/apply-change.ts';
import { inLiveCase } from '../../engine/live-case.ts';
import { presentCheck } from '../../present.ts';
import { loadTarget, lockCheckById } from '../../repository.ts';
import { noHitApprovalComment } from './approval-comment.ts';
import { hitsListTypes, matchStatus, mergeRescreen } from './hits.ts';
import { amlCheck } from './index.ts';
import type { AmlDataOut } from './schemas.ts';
import { screenSubject, subjectOf } from './screen.ts';

export const MONITORING_QUEUE = 'aml.monitoring';
export const RESCREEN_QUEUE = 'aml.rescreen';

/** Statuses a monitored check is re-screened in (processing ones are screened by their own job). */
const MONITORED_STATUSES = ['approved', 'rejected', 'need_review'] as const;

/**
 * Whether this process screens with `versionsKey`: a process whose index is not on it reloads
 * first; if it still differs and those versions are the latest recorded, it throws (the job is
 * retried once the process has them); if newer versions were recorded since, false (stale).
 */
async function onVersions(ctx: AppContext, versionsKey: string): Promise<boolean> {
  const service = ctx.screening;
  if (!service) return false;
  if (service.versionsKey === versionsKey) return true;
  await service.checkForChanges();
  await service.whenSettled();
  if (service.versionsKey === versionsKey) return true;
  const latest = await latestListLoad(ctx.db);
  if (latest?.versions_key === versionsKey) {
    // a process with no list directory never gets them: say how to fix it, not "yet"
    throw new Error(
      service.dir
        ? `lists ${versionsKey} are not loaded in this process yet (it reads ${service.dir})`
        : `lists ${versionsKey} were loaded by another process, but this one has no reference directory: give every process the same VERICASE_REFERENCE_DIR (or DATA_DIR with pulled lists)`,
    );
  }
  return false;
}

/**
 * Fan-out after a list version change: one re-screening job per monitored aml check. A process whose
 * index is not yet on the new versions reloads first; if it still differs and those versions are the
 * latest recorded, the job fails and is retried; if newer versions were recorded since, it is stale.
 */
export async function startMonitoringRun(ctx: AppContext, data: { versionsKey: string }): Promise<number> {
  if (!ctx.screening) return 0;
  if (!(await onVersions(ctx, data.versionsKey))) return 0;
  const rows = await ctx.db
    .selectFrom('checks')
    .select('id')
    .where('type', '=', 'aml')
    .where(sql<boolean>`(data->'vendor'->>'is_search_monitored') = 'true'`)
    .where('status', 'in', [...MONITORED_STATUSES])
    .where(inLiveCase)
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

/**
 * Re-screens one monitored check with the lists of its run and applies what changed. Any worker may
 * take the job, and each process notices new lists on its own (within the watch interval): one still
 * on the previous versions would screen with them, find nothing new and complete the job, and the
 * check would miss that version. It reloads first, and else fails the job to be retried.
 */
export async function rescreenCheck(
  ctx: AppContext,
  data: { checkId: string; versionsKey?: string },
): Promise<void> {
  if (data.versionsKey && !(await onVersions(ctx, data.versionsKey))) return;
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
      results_count: result.resultsCount,
      monitored_at: now,
    };
    // a decision is needed again for a new hit, a false positive the list now fits better, or a hit
    // gone from the lists; a listing updated around a decision that stands (a confirmed hit's new
    // alias, a program added) is recorded on the hit and reopens nothing
    const reviewAgain = merge.added + merge.reopened + merge.removed > 0;
    const wasError = before.result === 'error';
    const next: AmlDataOut = {
      ...before,
      // the subject is what was screened now (a renamed company, a corrected birth date)
      subject,
      vendor,
      hits: merge.hits,
      match_status: matchStatus(merge.hits),
      hits_list_types: hitsListTypes(merge.hits),
    };
    if (!reviewAgain && !wasError) {
      if (merge.updated) await updateCheckData(trx, check, next as unknown as Record<string, unknown>);
      else
        await trx
          .updateTable('checks')
          .set({ data: JSON.stringify(next) })
          .where('id', '=', check.id)
          .execute();
      return;
    }
    if (wasError && !merge.hits.length) {
      await applyOutcome(ctx, trx, amlCheck, check, {
        trigger: 'monitoring_update',
        status: 'approved',
        data: {
          ...next,
          result: 'approved',
          review: {
            comment: noHitApprovalComment(
              vendor.list_versions,
              'the re-screening after a list update',
              current.settings.list_types,
            ),
            reviewed_at: now,
            reviewer_type: 'system',
            user: null,
          },
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
          comment: `Monitoring after a list version change: hits ${merge.added} new, ${merge.updated} updated, ${merge.removed} removed`,
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
