import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors, IdParam } from '../http/common-schemas.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { createFraudReport } from './create-report.ts';
import { deleteFraudReport } from './delete-report.ts';
import { getFraudReport } from './get-report.ts';
import { fraudReportListSpec, listFraudReports } from './list-reports.ts';
import { FraudReport, FraudReportCreate } from './schemas.ts';

export function registerFraudDatabaseRoutes(app: App, ctx: AppContext): void {
  const tags = ['Fraud database'];
  app.post(
    '/fraud-database/reports',
    {
      schema: {
        tags,
        summary: 'Report an entity to the shared fraud list',
        description:
          'Reports an individual or a company of one of your cases (exactly one of `individual_id`, `company_id`). The list keeps keyed hashes of its normalised identifiers only (email, phone, IBAN, registration number with country, name with birth date), never the values. Other workspaces match your reports only while both you and they have `fraud_database.share: true`; your own checks always match them. 409 when the entity is already reported.',
        body: FraudReportCreate,
        response: { 201: FraudReport, ...errors(400, 404, 409) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await createFraudReport(ctx, req.principal.workspaceId, req.body)),
  );
  app.get(
    '/fraud-database/reports',
    {
      schema: {
        tags,
        summary: "List the workspace's own fraud reports",
        querystring: listQuerySchema(fraudReportListSpec),
        response: { 200: paginated(FraudReport), ...errors(400) },
      },
    },
    (req) => listFraudReports(ctx, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
  app.get(
    '/fraud-database/reports/:id',
    {
      schema: {
        tags,
        summary: 'Retrieve one of your fraud reports',
        params: IdParam,
        response: { 200: FraudReport, ...errors(400, 404) },
      },
    },
    (req) => getFraudReport(ctx, req.principal.workspaceId, req.params.id),
  );
  app.delete(
    '/fraud-database/reports/:id',
    {
      schema: {
        tags,
        summary: 'Withdraw a fraud report',
        description: 'Its hashes leave the list at once: no later check matches them.',
        params: IdParam,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      await deleteFraudReport(ctx, req.principal.workspaceId, req.params.id);
      return reply.status(204).send(null);
    },
  );
}
