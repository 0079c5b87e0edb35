import { Type } from 'typebox';
import type { App, AppContext } from '../../app-context.ts';
import { errors, Uuid } from '../../http/common-schemas.ts';
import { runCompanyMonitoring } from './run-monitoring.ts';

/**
 * POST /admin/company-monitoring/run (admin token, mounted inside the admin routes): a monitoring
 * pass now, in this process, instead of waiting for the schedule. `workspace_id` limits it to one
 * workspace; `ignore_schedule` re-reads every monitored company, not only those due.
 */
export function registerCompanyMonitoringAdminRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/company-monitoring/run',
    {
      schema: {
        tags: ['Admin'],
        summary: 'Run company monitoring now (re-read registry-linked companies, report changes)',
        body: Type.Optional(
          Type.Object({
            workspace_id: Type.Optional(Uuid),
            ignore_schedule: Type.Optional(Type.Boolean({ default: false })),
          }),
        ),
        response: {
          200: Type.Object({
            checked: Type.Integer({ description: 'Companies whose registry record was read' }),
            changed: Type.Integer({ description: 'Of those, companies whose monitored data changed' }),
            failed: Type.Integer({ description: 'Registry failures (retried at the next due time)' }),
          }),
          ...errors(400),
        },
      },
    },
    (req) =>
      runCompanyMonitoring(ctx, {
        workspaceId: req.body?.workspace_id,
        ignoreSchedule: req.body?.ignore_schedule ?? false,
      }),
  );
}
