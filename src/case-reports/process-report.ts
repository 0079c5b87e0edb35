import type { AppContext } from '../app-context.ts';
import { lockLiveCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import type { CaseReportRow } from '../db/schema.ts';
import { recordEvents, SYSTEM } from '../events/record-event.ts';
import { discardGeneratedFile, recordGeneratedFile, storeGeneratedFile } from '../files/generated-file.ts';
import { getStorage } from '../files/storage.ts';
import { loadReportData } from './load-report-data.ts';
import { renderCaseReportOffThread } from './pdf/render-off-thread.ts';
import { CASE_REPORT_RETRIES, DOWNLOAD_URL_VALIDITY_MS } from './queues.ts';
import { lockCaseReport, updateCaseReport } from './repository.ts';

/** The `report` of `CaseReport.Generated`: where to download the PDF and until when. */
export function presentCaseReport(row: CaseReportRow) {
  const generatedAt = row.generated_at as Date;
  return {
    download_url: `${row.base_url.replace(/\/+$/, '')}/v1/files/${row.file_id}`,
    download_url_expire_at: new Date(generatedAt.getTime() + DOWNLOAD_URL_VALIDITY_MS).toISOString(),
    generated_at: generatedAt.toISOString(),
  };
}

const CASE_DELETED = 'The case was deleted before its report was generated';

async function fail(ctx: AppContext, reportId: string, error: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const row = await lockCaseReport(trx, reportId);
    if (row?.status === 'requested') await updateCaseReport(trx, row.id, { status: 'failed', error });
  });
}

/** Records the stored file and the generated report with its event, unless another run did. */
async function settle(trx: Db, reportId: string, file: Parameters<typeof recordGeneratedFile>[1], at: Date) {
  const row = await lockCaseReport(trx, reportId);
  if (row?.status !== 'requested') return false;
  // deleted while the PDF was being made: no event may follow the case's Case.Deleted
  if (!(await lockLiveCase(trx, row.case_id))) {
    await updateCaseReport(trx, row.id, { status: 'failed', error: CASE_DELETED });
    return false;
  }
  await recordGeneratedFile(trx, file, row.case_id, at);
  const done = await updateCaseReport(trx, row.id, {
    status: 'generated',
    file_id: file.id,
    generated_at: at,
  });
  await recordEvents(trx, row.workspace_id, [
    {
      type: 'CaseReport.Generated',
      case_id: row.case_id,
      payload: { report: presentCaseReport(done) },
      actor: SYSTEM,
    },
  ]);
  return true;
}

/**
 * The job of one report: reads the case, renders the PDF, stores it and marks the report generated
 * with its `CaseReport.Generated` event in one transaction. Idempotent: a report already settled is
 * left alone; a case deleted meanwhile fails the report; the last failing run fails it too.
 */
export async function processCaseReport(
  ctx: AppContext,
  data: { reportId: string },
  meta: { retryCount: number },
): Promise<void> {
  const report = await ctx.db
    .selectFrom('case_reports')
    .selectAll()
    .where('id', '=', data.reportId)
    .executeTakeFirst();
  if (report?.status !== 'requested') return;
  try {
    const content = await loadReportData(ctx.db, report.workspace_id, report.case_id);
    if (!content) return fail(ctx, report.id, CASE_DELETED);
    const at = new Date();
    const bytes = await renderCaseReportOffThread(content, report.timezone, at);
    const storage = getStorage(ctx);
    const file = await storeGeneratedFile(storage, report.workspace_id, bytes, 'application/pdf');
    const recorded = await ctx.db
      .transaction()
      .execute((trx) => settle(trx, report.id, file, at))
      .catch(async (err) => {
        await discardGeneratedFile(storage, file);
        throw err;
      });
    if (!recorded) await discardGeneratedFile(storage, file);
  } catch (err) {
    if (meta.retryCount >= CASE_REPORT_RETRIES) {
      await fail(ctx, report.id, `The report could not be generated: ${(err as Error).message}`);
    }
    throw err;
  }
}
