import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { EXCLUDE_INTERNAL_CHECKS_DESCRIPTION, withoutInternalChecks } from '../checks/without-internal.ts';
import { individualDataLineage } from '../company-data/lineage/data-lineage.ts';
import { errors, IdParam, SetRelevant } from '../http/common-schemas.ts';
import { notFound } from '../http/errors.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { createIndividual } from './create-individual.ts';
import { deleteIndividual } from './delete-individual.ts';
import { individualView } from './individual-view.ts';
import { individualListSpec, listIndividuals } from './list-individuals.ts';
import { findIndividual } from './repository.ts';
import { Individual, IndividualCreate, IndividualListItem, IndividualUpdate } from './schemas.ts';
import { updateIndividual } from './update-individual.ts';

export function registerIndividualRoutes(app: App, ctx: AppContext): void {
  const tags = ['Individuals'];
  app.get(
    '/individuals',
    {
      schema: {
        tags,
        summary: 'List individuals',
        querystring: listQuerySchema(individualListSpec),
        response: { 200: paginated(IndividualListItem), ...errors(400) },
      },
    },
    (req) => listIndividuals(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
  app.post(
    '/individuals',
    {
      schema: {
        tags,
        summary: 'Create an individual in a case',
        body: IndividualCreate,
        response: { 201: Individual, ...errors(400, 404) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await createIndividual(ctx, req.principal.workspaceId, req.body)),
  );
  app.get(
    '/individuals/:id',
    {
      schema: {
        tags,
        summary: 'Retrieve an individual',
        params: IdParam,
        querystring: Type.Object({
          exclude_internal_checks: Type.Optional(
            Type.Boolean({ description: EXCLUDE_INTERNAL_CHECKS_DESCRIPTION }),
          ),
          data_lineage: Type.Optional(Type.Boolean()),
        }),
        response: { 200: Individual, ...errors(400, 404) },
      },
    },
    async (req) => {
      const row = await findIndividual(ctx.db, req.principal.workspaceId, req.params.id);
      if (!row) throw notFound('Individual');
      const all = await individualView(ctx.db, ctx, row);
      const view = req.query.exclude_internal_checks ? withoutInternalChecks(all) : all;
      if (!req.query.data_lineage) return view;
      return { ...view, data_lineage: await individualDataLineage(ctx.db, view, row) };
    },
  );
  app.patch(
    '/individuals/:id',
    {
      schema: {
        tags,
        summary: 'Update an individual',
        params: IdParam,
        body: IndividualUpdate,
        response: { 200: Individual, ...errors(400, 404) },
      },
    },
    (req) => updateIndividual(ctx, req.principal.workspaceId, req.params.id, req.body),
  );
  app.delete(
    '/individuals/:id',
    {
      schema: {
        tags,
        summary: 'Delete an individual and its relations',
        params: IdParam,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      await deleteIndividual(ctx, req.principal.workspaceId, req.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/individuals/:id/set-relevant',
    {
      schema: {
        tags,
        summary: 'Mark an individual relevant or not (not relevant ones are hidden from the case by default)',
        params: IdParam,
        body: SetRelevant,
        response: { 200: Individual, ...errors(400, 404) },
      },
    },
    (req) =>
      updateIndividual(
        ctx,
        req.principal.workspaceId,
        req.params.id,
        { is_relevant: req.body.is_relevant },
        // the reference's names, one per direction (what its webhooks subscribe to)
        req.body.is_relevant ? 'Individual.MarkedAsRelevant' : 'Individual.MarkedAsNotRelevant',
      ),
  );
}
