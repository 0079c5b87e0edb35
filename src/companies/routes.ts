import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { EXCLUDE_INTERNAL_CHECKS_DESCRIPTION, withoutInternalChecks } from '../checks/without-internal.ts';
import { createCompanyFromBody } from '../company-data/import/company-import.ts';
import { CompanyCreateBody } from '../company-data/import/schemas.ts';
import { companyDataLineage } from '../company-data/lineage/data-lineage.ts';
import { errors, IdParam, SetRelevant } from '../http/common-schemas.ts';
import { notFound } from '../http/errors.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { companyView } from './company-view.ts';
import { deleteCompany } from './delete-company.ts';
import { companyListSpec, listCompanies } from './list-companies.ts';
import { findCompany } from './repository.ts';
import { Company, CompanyListItem, CompanyUpdate } from './schemas.ts';
import { updateCompany } from './update-company.ts';

export function registerCompanyRoutes(app: App, ctx: AppContext): void {
  const tags = ['Companies'];
  app.get(
    '/companies',
    {
      schema: {
        tags,
        summary: 'List companies',
        querystring: listQuerySchema(companyListSpec),
        response: { 200: paginated(CompanyListItem), ...errors(400) },
      },
    },
    (req) => listCompanies(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
  app.post(
    '/companies',
    {
      schema: {
        tags,
        summary: 'Create a company in a case',
        description:
          'With `search_ref` (from GET /v1/company-data/search) the registry profile fills the fields not given and links the company to its registry record; `import_related` adds its officers and owners.',
        body: CompanyCreateBody,
        response: { 201: Company, ...errors(400, 404, 502, 503) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await createCompanyFromBody(ctx, req.principal.workspaceId, req.body)),
  );
  app.get(
    '/companies/:id',
    {
      schema: {
        tags,
        summary: 'Retrieve a company',
        params: IdParam,
        querystring: Type.Object({
          exclude_internal_checks: Type.Optional(
            Type.Boolean({ description: EXCLUDE_INTERNAL_CHECKS_DESCRIPTION }),
          ),
          data_lineage: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Company, ...errors(400, 404) },
      },
    },
    async (req) => {
      const row = await findCompany(ctx.db, req.principal.workspaceId, req.params.id);
      if (!row) throw notFound('Company');
      const all = await companyView(ctx.db, ctx, row);
      const view = req.query.exclude_internal_checks ? withoutInternalChecks(all) : all;
      return req.query.data_lineage
        ? { ...view, data_lineage: await companyDataLineage(ctx.db, view, row) }
        : view;
    },
  );
  app.patch(
    '/companies/:id',
    {
      schema: {
        tags,
        summary: 'Update a company',
        params: IdParam,
        body: CompanyUpdate,
        response: { 200: Company, ...errors(400, 404) },
      },
    },
    (req) => updateCompany(ctx, req.principal.workspaceId, req.params.id, req.body),
  );
  app.delete(
    '/companies/:id',
    {
      schema: {
        tags,
        summary: 'Delete a company and its relations',
        params: IdParam,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      await deleteCompany(ctx, req.principal.workspaceId, req.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/companies/:id/set-relevant',
    {
      schema: {
        tags,
        summary: 'Mark a company relevant or not (not relevant ones are hidden from the case by default)',
        params: IdParam,
        body: SetRelevant,
        response: { 200: Company, ...errors(400, 404) },
      },
    },
    (req) =>
      updateCompany(
        ctx,
        req.principal.workspaceId,
        req.params.id,
        { is_relevant: req.body.is_relevant },
        // the reference's names, one per direction (what its webhooks subscribe to)
        req.body.is_relevant ? 'Company.MarkedAsRelevant' : 'Company.MarkedAsNotRelevant',
      ),
  );
}
