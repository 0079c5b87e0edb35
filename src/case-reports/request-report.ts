import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
import { CASE_REPORT_QUEUE } from './queues.ts';
import { insertCaseReport } from './repository.ts';
import { type CaseReportParams, DEFAULT_REPORT_TIMEZONE } from './schemas.ts';
import { canonicalTimeZone, isTimeZone } from './timezone.ts';

/**
 * `POST /cases/{id}/generate-report`: records the report request and its job in one transaction;
 * the job renders the PDF and sends `CaseReport.Generated`. `baseUrl` is the service's public
 * address, from which the download URL is built.
 */
export async function requestCaseReport(
  ctx: AppContext,
  workspaceId: string,
  caseId: string,
  body: Static<typeof CaseReportParams> | undefined,
  baseUrl: string,
): Promise<void> {
  const zone = body?.timezone ?? DEFAULT_REPORT_TIMEZONE;
  if (!isTimeZone(zone)) {
    throw badRequest(
      `timezone ${JSON.stringify(zone)} is not an IANA time zone name (e.g. Europe/Paris, UTC)`,
      'timezone',
    );
  }
  if (!UUID_RE.test(caseId)) throw notFound('Case');
  await ctx.db.transaction().execute(async (trx) => {
    const kase = await trx
      .selectFrom('cases')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', caseId)
      .where('deleted_at', 'is', null)
      .forKeyShare()
      .executeTakeFirst();
    if (!kase) throw notFound('Case');
    const row = await insertCaseReport(trx, {
      id: randomUUID(),
      workspace_id: workspaceId,
      case_id: caseId,
      timezone: canonicalTimeZone(zone),
      base_url: baseUrl,
    });
    await ctx.jobs.send(trx, CASE_REPORT_QUEUE, { reportId: row.id });
  });
}
