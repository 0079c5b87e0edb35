import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors, Uuid } from '../http/common-schemas.ts';
import { createRelation } from './create-relation.ts';
import { deleteRelation } from './delete-relation.ts';
import { Relation, RelationCreate, RelationUpdate } from './schemas.ts';
import { updateRelation } from './update-relation.ts';

const CaseParam = Type.Object({ caseId: Uuid });
const RelationParams = Type.Object({ caseId: Uuid, caseRelationId: Uuid });

export function registerRelationRoutes(app: App, ctx: AppContext): void {
  const tags = ['Case relations'];
  app.post(
    '/cases/:caseId/relations',
    {
      schema: {
        tags,
        summary: 'Relate a company or an individual to a company of the case',
        description: 'to_company_id defaults to the main company.',
        params: CaseParam,
        body: RelationCreate,
        response: { 201: Relation, ...errors(400, 404) },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await createRelation(ctx, req.principal.workspaceId, req.params.caseId, req.body)),
  );
  app.patch(
    '/cases/:caseId/relations/:caseRelationId',
    {
      schema: {
        tags,
        summary: 'Update a relation',
        description:
          'Moving it to another company (to_company_id) is refused when it would leave the company it leaves with no relation, as deleting it would.',
        params: RelationParams,
        body: RelationUpdate,
        response: { 200: Relation, ...errors(400, 404) },
      },
    },
    (req) =>
      updateRelation(ctx, req.principal.workspaceId, req.params.caseId, req.params.caseRelationId, req.body),
  );
  app.delete(
    '/cases/:caseId/relations/:caseRelationId',
    {
      schema: {
        tags,
        summary: 'Delete a relation (refused when it would leave an entity with no relation)',
        params: RelationParams,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      await deleteRelation(ctx.db, req.principal.workspaceId, req.params.caseId, req.params.caseRelationId);
      return reply.status(204).send(null);
    },
  );
}
