import type { TSchema } from 'typebox';
import type { App, AppContext } from '../../../app-context.ts';
import { errors, IdParam } from '../../../http/common-schemas.ts';
import type { CheckTypeDefinition } from '../../check-type.ts';
import { fullCheckSchema } from '../../envelope-schema.ts';
import { addDocumentFiles } from './add-files.ts';
import { DocumentAddFilesBody, DocumentData } from './schemas.ts';

/** document's own route: add_files (create, retrieve, review and force_review come from the engine). */
export function registerDocumentRoutes(app: App, ctx: AppContext, def: CheckTypeDefinition): void {
  const Full: TSchema = fullCheckSchema(def.type, def.targets, DocumentData);
  app.post(
    '/checks/document/:id/add_files',
    {
      schema: {
        tags: ['Checks: document'],
        summary: 'Add files to a document check',
        description:
          'in_progress or need_review: the files join the current attempt (at most 10 in all) and the attempt is analysed again. rejected or expired: a new attempt opens with these files (the previous one moves to the history). Any other status → 400.',
        params: IdParam,
        body: DocumentAddFilesBody,
        response: { 201: Full, ...errors(400, 404) },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await addDocumentFiles(ctx, req.principal.workspaceId, def, req.params.id, req.body)),
  );
}
