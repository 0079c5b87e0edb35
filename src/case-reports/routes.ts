import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors, IdParam } from '../http/common-schemas.ts';
import { serviceBaseUrl } from '../shared/service-url.ts';
import { requestCaseReport } from './request-report.ts';
import { CaseReportParams } from './schemas.ts';

/** `POST /cases/{id}/generate-report`. */
export function registerCaseReportRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/cases/:id/generate-report',
    {
      schema: {
        tags: ['Cases'],
        summary: 'Generate case report',
        description:
          'Asks for a PDF report of the case (its companies, individuals and relations, checks, reviews, notes and activity, times in `timezone`). The report is rendered in the background; `CaseReport.Generated` is then sent to webhooks with its `download_url`, and it is listed in GET /v1/cases/{id}/documents as `case_report`.',
        params: IdParam,
        body: CaseReportParams,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
      // the body is optional (every field is): none means the default parameters (strict-input.ts)
    },
    async (req, reply) => {
      const baseUrl = serviceBaseUrl(ctx.config);
      await requestCaseReport(ctx, req.principal.workspaceId, req.params.id, req.body, baseUrl);
      return reply.status(204).send(null);
    },
  );
}
