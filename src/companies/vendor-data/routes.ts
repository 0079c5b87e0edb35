import type { App, AppContext } from '../../app-context.ts';
import { errors, IdParam } from '../../http/common-schemas.ts';
import { listQuerySchema, paginated } from '../../http/list-query.ts';
import { listVendorData, vendorDataListSpec } from './list-vendor-data.ts';
import { CompanyVendorData } from './schemas.ts';

export function registerCompanyVendorDataRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/companies/:id/vendor-data',
    {
      schema: {
        tags: ['Companies'],
        summary: "List a company's vendor data",
        description:
          'Raw answers of company registries fetched for the company, one item per fetch. Sorted by `fetched_at` ascending unless `sort` says otherwise.',
        params: IdParam,
        querystring: listQuerySchema(vendorDataListSpec),
        response: { 200: paginated(CompanyVendorData), ...errors(400, 404) },
      },
    },
    (req) =>
      listVendorData(ctx.db, req.principal.workspaceId, req.params.id, req.query as Record<string, unknown>),
  );
}
