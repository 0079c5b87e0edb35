import type { App, AppContext } from '../../../app-context.ts';
import { sessionNestedUser } from '../../../audit-log/who.ts';
import { errors, IdParam } from '../../../http/common-schemas.ts';
import { readIfMatch, sendVersion } from '../../../http/conditional.ts';
import { fullCheckSchema } from '../../envelope-schema.ts';
import { reviewAmlHits } from './review-hits.ts';
import { AmlData, ReviewHitsBody, UpdateMonitoringBody } from './schemas.ts';
import { updateAmlMonitoring } from './update-monitoring.ts';

const AmlCheck = fullCheckSchema('aml', ['individual', 'company'], AmlData);

/** The aml routes beyond the generic ones: hit review and monitoring. */
export function registerAmlRoutes(app: App, ctx: AppContext): void {
  const tags = ['Checks: aml'];
  app.patch(
    '/checks/aml/:id/hits/review',
    {
      schema: {
        tags,
        summary: 'Confirm (true positive) or ignore (false positive) hits of an aml check',
        params: IdParam,
        body: ReviewHitsBody,
        response: { 200: AmlCheck, ...errors(400, 404, 412) },
      },
    },
    async (req, reply) => {
      const condition = readIfMatch(req.headers['if-match']);
      const out = await reviewAmlHits(
        ctx,
        req.principal.workspaceId,
        req.params.id,
        req.body,
        sessionNestedUser(req.principal),
        condition,
      );
      sendVersion(reply, out.updated_at);
      return out as never;
    },
  );
  app.patch(
    '/checks/aml/:id/monitoring',
    {
      schema: {
        tags,
        summary: 'Enable or disable monitoring (re-screening when a list version changes)',
        params: IdParam,
        body: UpdateMonitoringBody,
        response: { 200: AmlCheck, ...errors(400, 404) },
      },
    },
    async (req) =>
      (await updateAmlMonitoring(
        ctx,
        req.principal.workspaceId,
        req.params.id,
        req.body.is_monitored,
      )) as never,
  );
}
