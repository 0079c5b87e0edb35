import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { prepareCaseImport } from '../company-data/import/case-import.ts';
import { CaseCreateBody } from '../company-data/import/schemas.ts';
import { getStorage } from '../files/storage.ts';
import { CaseIdParam, errors } from '../http/common-schemas.ts';
import { readIfMatch, sendVersion } from '../http/conditional.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { checkCaseLegalForms } from './check-legal-forms.ts';
import { createCase } from './create-case.ts';
import { deleteCase } from './delete-case.ts';
import { getCase } from './get-case.ts';
import { caseListSpec, listCases } from './list-cases.ts';
import { Case, CaseDeleteQuery, CaseDetailed, CaseGetQuery, CaseListItem, CaseUpdate } from './schemas.ts';
import { updateCase } from './update-case.ts';

export function registerCaseRoutes(app: App, ctx: AppContext): void {
  const tags = ['Cases'];
  app.get(
    '/cases',
    {
      schema: {
        tags,
        summary: 'List cases',
        description:
          'Each case without its custom_properties unless include_custom_properties=true (default false): they can be large, and most lists do not read them.',
        querystring: listQuerySchema(caseListSpec, {
          include_custom_properties: Type.Optional(
            Type.Boolean({ default: false, description: 'Include each case’s custom_properties' }),
          ),
        }),
        response: { 200: paginated(CaseListItem), ...errors(400) },
      },
    },
    (req) => listCases(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );

  app.post(
    '/cases',
    {
      schema: {
        tags,
        summary: 'Create a case with its companies, individuals and relations',
        description:
          'The whole graph is written in one transaction, or nothing is. A company may give `search_ref` (from GET /v1/company-data/search) instead of its fields: its registry profile fills it (fields given win) and, with `import_related`, its officers and owners join the case. A registry failure is a 502/503 and writes nothing.',
        body: CaseCreateBody,
        response: { 201: CaseDetailed, ...errors(400, 409, 502, 503) },
      },
    },
    async (req, reply) => {
      // registry companies (search_ref) are fetched before the case's transaction opens
      const prepared = await prepareCaseImport(ctx, req.principal.workspaceId, req.body);
      const created = await checkCaseLegalForms(ctx, req.body, prepared.input)
        .then(() =>
          createCase(
            ctx.db,
            req.principal.workspaceId,
            prepared.input,
            prepared.wrap(ctx.hooks.afterCaseCreated),
          ),
        )
        .catch(async (err) => {
          await prepared.giveBack(); // refused (a duplicate external_id, the check limit...): no fetch spent
          throw err;
        });
      return reply.status(201).send(created);
    },
  );

  app.get(
    '/cases/:id',
    {
      schema: {
        tags,
        summary: 'Retrieve a case (by id, then external_id)',
        params: CaseIdParam,
        querystring: CaseGetQuery,
        response: { 200: CaseDetailed, ...errors(404) },
      },
    },
    async (req, reply) => {
      const kase = await getCase(
        ctx.db,
        req.principal.workspaceId,
        req.params.id,
        {
          includeNotRelevant: req.query.include_not_relevant ?? false,
          excludeInternalChecks: req.query.exclude_internal_checks ?? false,
          propertyOrigin: (req.query.property_origin ?? false) || (req.query.data_lineage ?? false),
        },
        ctx.hooks.loadCheckEnvelopes,
      );
      // the case row's version (its checks have their own): what If-Match on its review compares
      sendVersion(reply, kase.updated_at);
      return kase;
    },
  );

  app.patch(
    '/cases/:id',
    {
      schema: {
        tags,
        summary: 'Update a case',
        params: CaseIdParam,
        body: CaseUpdate,
        response: { 200: Case, ...errors(400, 404, 409, 412) },
      },
    },
    async (req, reply) => {
      const condition = readIfMatch(req.headers['if-match']);
      const out = await updateCase(ctx, req.principal.workspaceId, req.params.id, req.body, condition);
      sendVersion(reply, out.updated_at);
      return out;
    },
  );

  app.delete(
    '/cases/:id',
    {
      schema: {
        tags,
        summary: 'Delete a case (soft, or permanent with ?permanent=true)',
        params: CaseIdParam,
        querystring: CaseDeleteQuery,
        response: { 204: Type.Null(), ...errors(404) },
      },
    },
    async (req, reply) => {
      const deps = {
        db: ctx.db,
        storage: () => getStorage(ctx),
        onFileError: (err: unknown, key: string) =>
          req.log.warn({ err, key }, 'an erased file could not be removed from storage'),
      };
      await deleteCase(deps, req.principal.workspaceId, req.params.id, req.query.permanent ?? false);
      return reply.status(204).send(null);
    },
  );
}
