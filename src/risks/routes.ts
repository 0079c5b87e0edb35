import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors } from '../http/common-schemas.ts';
import { createRisk } from './create-risk.ts';
import { Risk, RiskCreate } from './schemas.ts';

const CaseUuidParam = Type.Object({ id: Type.String({ format: 'uuid', description: 'Id of the case' }) });

export function registerRiskRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/cases/:id/risks',
    {
      schema: {
        tags: ['Cases'],
        summary: 'Create an automatic risk',
        description:
          'Records a risk assessment computed by the caller (mode `automatic`) as the current risk of the case; ' +
          'set by a person in the console, it is mode `manual`. ' +
          '400 for an automatic one when the workspace computes risk with online engines (`risk.online_engines`). ' +
          "`Case.RiskUpdated` is emitted when the case's risk changes. An assessment identical to the current " +
          'risk (same level, score, components, flags and comment) is still recorded and answered (201, its own ' +
          'id), but changes nothing on the case: its `risk` stays the earlier assessment, its `updated_at` stays, ' +
          'and no event or activity is recorded.',
        params: CaseUuidParam,
        body: RiskCreate,
        response: { 201: Risk, ...errors(400, 404) },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(
          await createRisk(
            ctx.db,
            req.principal.workspaceId,
            req.params.id,
            req.body,
            req.principal.user ? 'manual' : 'automatic',
          ),
        ),
  );
}
