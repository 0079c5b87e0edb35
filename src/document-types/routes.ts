import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors } from '../http/common-schemas.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { archiveDocumentType } from './archive-document-type.ts';
import { createDocumentType } from './create-document-type.ts';
import { documentTypeListSpec, listDocumentTypes } from './list-document-types.ts';
import { DocumentType, DocumentTypeCreate, DocumentTypeIdParam } from './schemas.ts';

/** Document types: what a `document` check asks for (built-in ones and the workspace's own). */
export function registerDocumentTypeRoutes(app: App, ctx: AppContext): void {
  const tags = ['Checks: document'];
  app.get(
    '/document_types',
    {
      schema: {
        tags,
        summary: 'List document types',
        description:
          'The built-in document types and the workspace’s own; archived ones only with include_archived=true.',
        querystring: listQuerySchema(documentTypeListSpec, {
          include_archived: Type.Optional(Type.Boolean({ description: 'Include archived custom types' })),
        }),
        response: { 200: paginated(DocumentType), ...errors(400) },
      },
    },
    (req) => listDocumentTypes(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
  app.post(
    '/document_types',
    {
      schema: {
        tags,
        summary: 'Create a custom document type',
        description:
          'The key must be new to the workspace (archived types included) and must not be a built-in key: 409 otherwise.',
        body: DocumentTypeCreate,
        response: { 201: DocumentType, ...errors(400, 409) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await createDocumentType(ctx.db, req.principal.workspaceId, req.body)),
  );
  app.delete(
    '/document_types/:id',
    {
      schema: {
        tags,
        summary: 'Archive a custom document type',
        description:
          'The type leaves the list and cannot be used by new document checks; existing checks keep it. Built-in types cannot be archived (400), nor a type a template’s document check asks for (400 CONFLICT naming the templates).',
        params: DocumentTypeIdParam,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      await archiveDocumentType(ctx.db, req.principal.workspaceId, req.params.id);
      return reply.status(204).send(null);
    },
  );
}
