import type { TSchema } from 'typebox';
import type { App, AppContext } from '../../../app-context.ts';
import { errors, IdParam } from '../../../http/common-schemas.ts';
import type { CheckTypeDefinition } from '../../check-type.ts';
import { fullCheckSchema } from '../../envelope-schema.ts';
import { addFiles } from './add-files.ts';
import { IdDocumentData, IdDocumentFiles } from './schemas.ts';

/** id_document's own route: add_files (the generic create/get/review/force_review come from the engine). */
export function registerIdDocumentRoutes(app: App, ctx: AppContext, def: CheckTypeDefinition): void {
  const Full: TSchema = fullCheckSchema(def.type, def.targets, IdDocumentData);
  app.post(
    '/checks/id_document/:id/add_files',
    {
      schema: {
        tags: ['Checks: id_document'],
        summary: 'Add files to an id_document check',
        description:
          'Accepted only while the check is in_progress (the images join the current attempt and are submitted), rejected or expired (a new attempt opens; the previous one moves to the history). Any other status → 400.',
        params: IdParam,
        body: IdDocumentFiles,
        response: {
          201: Full,
          ...errors(400, 404),
        },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await addFiles(ctx, req.principal.workspaceId, def, req.params.id, req.body)),
  );
}
