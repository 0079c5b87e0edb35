import type { App, AppContext } from '../../app-context.ts';
import { errors, IdParam } from '../../http/common-schemas.ts';
import { listCaseDocuments } from './list-case-documents.ts';
import { CaseDocumentList, CaseDocumentsQuery } from './schemas.ts';

/** `GET /cases/{id}/documents`: the files of a case's checks (and later case reports, document orders). */
export function registerCaseDocumentRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/cases/:id/documents',
    {
      schema: {
        tags: ['Cases'],
        summary: "Retrieve a case's documents",
        description:
          'Files of the checks of the case (file ids only; download each with GET /v1/files/{id}). By default the latest attempt of each check and relevant entities only.',
        params: IdParam,
        querystring: CaseDocumentsQuery,
        response: { 200: CaseDocumentList, ...errors(400, 404) },
      },
    },
    (req) => listCaseDocuments(ctx.db, req.principal.workspaceId, req.params.id, req.query),
  );
}
