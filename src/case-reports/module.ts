import type { Module } from '../modules.ts';
import { processCaseReport } from './process-report.ts';
import { CASE_REPORT_QUEUE, CASE_REPORT_RENDERS_AT_ONCE, CASE_REPORT_RETRIES } from './queues.ts';

/** Case reports: the job that renders a requested report and sends `CaseReport.Generated`. */
export const caseReportsModule: Module = {
  name: 'case-reports',
  install(ctx) {
    ctx.jobs.define<{ reportId: string }>({
      name: CASE_REPORT_QUEUE,
      handler: (data, meta) => processCaseReport(ctx, data, meta),
      retryLimit: CASE_REPORT_RETRIES,
      retryDelaySeconds: 5,
      retryDelayMaxSeconds: 120,
      expireInSeconds: 300,
      batchSize: CASE_REPORT_RENDERS_AT_ONCE,
    });
  },
};
