import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors } from '../http/common-schemas.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { getCustomProperty } from './get-custom-property.ts';
import { customPropertyListSpec, listCustomProperties } from './list-custom-properties.ts';
import { CustomProperty, CustomPropertyDetailed, TargetKeyParam, TargetParam } from './schemas.ts';

const DERIVED =
  'Definitions are derived from the keys that live entities of the workspace carry in `custom_properties`, typed from their values (see docs/compatibility.md).';

export function registerCustomPropertyRoutes(app: App, ctx: AppContext): void {
  const tags = ['Custom properties'];
  app.get(
    '/custom-properties/:target_entity',
    {
      schema: {
        tags,
        summary: 'List custom properties of an entity kind',
        description: `${DERIVED} Choices options are given by the detail endpoint only.`,
        params: TargetParam,
        querystring: listQuerySchema(customPropertyListSpec, {
          include_archived: Type.Optional(
            Type.Boolean({ description: 'Also list archived properties (derived ones never are).' }),
          ),
        }),
        response: { 200: paginated(CustomProperty), ...errors(400) },
      },
    },
    (req) =>
      listCustomProperties(
        ctx.db,
        req.principal.workspaceId,
        req.params.target_entity,
        req.query as Record<string, unknown>,
      ),
  );

  app.get(
    '/custom-properties/:target_entity/:key',
    {
      schema: {
        tags,
        summary: 'Retrieve a custom property',
        description: `${DERIVED} A \`choices\` property lists its options: every value in use.`,
        params: TargetKeyParam,
        response: { 200: CustomPropertyDetailed, ...errors(400, 404) },
      },
    },
    (req) => getCustomProperty(ctx.db, req.principal.workspaceId, req.params.target_entity, req.params.key),
  );
}
