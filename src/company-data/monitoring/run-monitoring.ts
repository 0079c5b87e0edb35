import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context.ts';
import { lockCase } from '../../cases/repository.ts';
import { applyOutcome } from '../../checks/engine/apply-change.ts';
import { reviewNeeded } from '../../checks/review-data.ts';
import { companyMonitoringCheck } from '../../checks/types/company_monitoring/index.ts';
import type { Db } from '../../db/connect.ts';
import type { CompanyMonitoringStateRow } from '../../db/schema.ts';
import { fetchProfileByRecord } from '../fetch-profile.ts';
import { RegistryError } from '../provider.ts';
import type { RegistryVendor } from '../vendors.ts';
import { alertCategories, diffSnapshots, type RegistryChanges, revertChanges } from './diff.ts';
import { createMonitoringCheck, findMonitoringCheck } from './monitoring-check.ts';
import { baselineSnapshot, type MonitoringSnapshot } from './snapshot.ts';

const BATCH = 100;

export interface MonitoringRunOptions {
  /** Only this workspace's companies (tests, admin runs). */
  workspaceId?: string;
  /** Every monitored company now, not only those due. */
  ignoreSchedule?: boolean;
}

export interface MonitoringRunReport {
  checked: number;
  changed: number;
  failed: number;
}

type Due = CompanyMonitoringStateRow & {
  case_id: string;
  registry_vendor: string;
  registry_country: string;
  registry_vendor_ref: string;
};

/** Linked companies of live cases in workspaces that monitor companies, due for a re-read. */
function dueStates(ctx: AppContext, opts: MonitoringRunOptions, after: string | null) {
  let q = ctx.db
    .selectFrom('company_monitoring_state as s')
    .innerJoin('companies as co', 'co.id', 's.company_id')
    .innerJoin('cases as c', 'c.id', 'co.case_id')
    .innerJoin('workspaces as w', 'w.id', 's.workspace_id')
    .selectAll('s')
    .select(['co.case_id', 'co.registry_vendor', 'co.registry_country', 'co.registry_vendor_ref'])
    .where('c.deleted_at', 'is', null)
    .where('co.registry_vendor', 'is not', null)
    .where(sql<boolean>`(w.settings #>> '{checks,company_monitoring,enabled}') = 'true'`)
    .orderBy('s.company_id')
    .limit(BATCH);
  if (!opts.ignoreSchedule) q = q.where('s.next_check_at', '<=', sql<Date>`now()`);
  if (opts.workspaceId) q = q.where('s.workspace_id', '=', opts.workspaceId);
  if (after) q = q.where('s.company_id', '>', after);
  return q.execute() as Promise<Due[]>;
}

const nextDue = (ctx: AppContext) =>
  sql<Date>`now() + make_interval(secs => ${ctx.config.companyMonitoringIntervalSeconds})`;

/**
 * One monitoring pass: re-reads each due company's registry record (bypassing the profile cache,
 * not counted against the fetch limit), compares status, name, address, officers and owners with
 * the stored snapshot, and on a change moves the company_monitoring check to need_review with the
 * differences, through the check engine (its events, case flags). Nothing changed: nothing written
 * but the schedule. A registry failure leaves the company for the next pass.
 */
export async function runCompanyMonitoring(
  ctx: AppContext,
  opts: MonitoringRunOptions = {},
): Promise<MonitoringRunReport> {
  const report: MonitoringRunReport = { checked: 0, changed: 0, failed: 0 };
  let after: string | null = null;
  for (;;) {
    const batch = await dueStates(ctx, opts, after);
    for (const state of batch) {
      // one company's failure (its registry, or a refused change) does not stop the pass
      const outcome = await monitorOne(ctx, state).catch((err) => postpone(ctx, state, err));
      report.checked += 1;
      if (outcome === 'changed') report.changed += 1;
      if (outcome === 'failed') report.failed += 1;
    }
    if (batch.length < BATCH) return report;
    after = batch[batch.length - 1].company_id;
  }
}

/** The company is read again at its next due time; the error is kept on its state row. */
async function postpone(ctx: AppContext, state: Due, err: unknown): Promise<'failed'> {
  await ctx.db
    .updateTable('company_monitoring_state')
    .set({ last_error: String((err as Error)?.message ?? err), next_check_at: nextDue(ctx) })
    .where('company_id', '=', state.company_id)
    .execute();
  return 'failed';
}

/**
 * The status a snapshot takes when the registry no longer has the record (a 404 on re-reading it:
 * struck off and purged, merged away, or its publication withdrawn): a change like any other,
 * which asks for a review, where it was a failure retried forever and the check stayed approved.
 */
export const REMOVED_FROM_REGISTRY = 'removed';

/** What the check was before a registry change asked for its review (kept in `internal`). */
interface BeforeReview {
  status: 'approved' | 'rejected' | 'expired';
  data: Record<string, unknown>;
}

async function monitorOne(
  ctx: AppContext,
  state: Due,
): Promise<'changed' | 'unchanged' | 'failed' | 'skipped'> {
  let fetched: Awaited<ReturnType<typeof fetchProfileByRecord>> | null = null;
  try {
    fetched = await fetchProfileByRecord(
      ctx,
      state.registry_vendor as RegistryVendor,
      state.registry_country,
      state.registry_vendor_ref,
      { bypassCache: true },
    );
  } catch (err) {
    if (!(err instanceof RegistryError && err.kind === 'not_found')) return postpone(ctx, state, err);
  }
  return ctx.db.transaction().execute(async (trx) => {
    // the case first, like every write under a case
    if (!(await lockCase(trx, state.workspace_id, state.case_id))) return 'skipped';
    const locked = await trx
      .selectFrom('company_monitoring_state')
      .selectAll()
      .where('company_id', '=', state.company_id)
      .forUpdate()
      .executeTakeFirst();
    // gone, or another pass handled it since we read it
    if (!locked || new Date(locked.last_checked_at).getTime() !== new Date(state.last_checked_at).getTime())
      return 'skipped';
    const previous = locked.snapshot as unknown as MonitoringSnapshot;
    // a record the registry no longer has keeps its last known values, with the status saying so
    const next = fetched ? baselineSnapshot(fetched.profile) : { ...previous, status: REMOVED_FROM_REGISTRY };
    let check = await findMonitoringCheck(trx, state.company_id);
    const pending =
      check?.status === 'need_review'
        ? ((check.data as { changes?: RegistryChanges | null }).changes ?? null)
        : null;
    // a change since the last read; while earlier changes wait for review, the check shows every
    // change since the state last reviewed (a new change does not hide the unreviewed ones)
    const fresh = diffSnapshots(previous, next);
    const sinceReviewed = fresh && pending ? diffSnapshots(revertChanges(previous, pending), next) : fresh;
    const before = (check?.internal as { before_review?: BeforeReview } | undefined)?.before_review;
    if (check && fresh && pending && !sinceReviewed && before) {
      // every change awaiting review was undone in the registry: it is again the state last
      // reviewed, so the check returns to what it was then (nothing is left to review)
      const { before_review: _, ...internal } = check.internal as Record<string, unknown>;
      await applyOutcome(ctx, trx, companyMonitoringCheck, check, {
        trigger: 'registry_change_undone',
        status: before.status,
        data: before.data,
        internal,
      });
    }
    const changes = sinceReviewed ?? (before ? null : fresh);
    // monitoring enabled after the company was linked: its check starts now
    check ??= await createMonitoringCheck(ctx, trx, state.workspace_id, state.company_id, true);
    if (changes) {
      const data = check.data as Record<string, unknown>;
      const gone = !fetched && changes.fields.some((f) => f.field === 'status');
      const categories = alertCategories(changes);
      await applyOutcome(ctx, trx, companyMonitoringCheck, check, {
        trigger: 'registry_change',
        status: 'need_review',
        data: {
          ...data,
          result: null,
          review: reviewNeeded(
            gone
              ? `the registry (${state.registry_vendor}) no longer has the company's record; confirm the company still exists`
              : `the company's registry data changed (${categories.join(', ') || 'other'}); confirm the changes`,
          ),
          changes: { detected_at: new Date().toISOString(), categories, ...changes },
        },
        // what the check was before this review was asked, to return to if the change is undone
        ...(check.status !== 'need_review' && ['approved', 'rejected', 'expired'].includes(check.status)
          ? {
              internal: {
                ...(check.internal as Record<string, unknown>),
                before_review: { status: check.status, data },
              },
            }
          : {}),
      });
    }
    // the registry's answer moved (a change, or one undone): its newest vendor data is this answer,
    // not the one it took back
    if (fetched && fresh) await keepVendorData(trx, state, fetched.raw);
    await trx
      .updateTable('company_monitoring_state')
      .set({
        snapshot: JSON.stringify(next),
        last_checked_at: sql`now()`,
        next_check_at: nextDue(ctx),
        last_error: null,
      })
      .where('company_id', '=', state.company_id)
      .execute();
    return changes || (fresh && pending && !sinceReviewed) ? 'changed' : 'unchanged';
  });
}

/** The registry's raw answer that differed from the last read, kept as the company's vendor data. */
async function keepVendorData(trx: Db, state: Due, raw: unknown) {
  await trx
    .insertInto('company_vendor_data')
    .values({
      id: randomUUID(),
      workspace_id: state.workspace_id,
      company_id: state.company_id,
      name: state.registry_vendor,
      raw: JSON.stringify(
        raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : { value: raw ?? null },
      ),
    })
    .execute();
}
