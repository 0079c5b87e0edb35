import type { App, AppContext } from '../app-context.ts';
import { FileBytes } from '../files/schemas.ts';
import { errors } from '../http/common-schemas.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { createDocumentTemplate } from './create-template.ts';
import { createDocumentTemplateVersion } from './create-version.ts';
import { getDocumentTemplate, getDocumentTemplateVersion } from './get-template.ts';
import { documentTemplateListSpec, listDocumentTemplates } from './list-templates.ts';
import { publishDocumentTemplateVersion } from './publish-version.ts';
import { renderDocumentTemplate } from './render-document.ts';
import {
  DocumentTemplate,
  DocumentTemplateCreate,
  DocumentTemplateListItem,
  DocumentTemplateVersion,
  DocumentTemplateVersionCreate,
  RenderBody,
  RenderParams,
  TemplateKeyParam,
  TemplateVersionParams,
} from './schemas.ts';

/** Document templates (HTML with placeholders, versioned) and their rendering for a case. */
export function registerDocumentTemplateRoutes(app: App, ctx: AppContext): void {
  const tags = ['Document templates'];
  app.post(
    '/document-templates',
    {
      schema: {
        tags,
        summary: 'Create a document template',
        description:
          'A template has no content until a version is added; 409 when the key is taken in the workspace.',
        body: DocumentTemplateCreate,
        response: { 201: DocumentTemplate, ...errors(400, 409) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await createDocumentTemplate(ctx.db, req.principal.workspaceId, req.body)),
  );
  app.get(
    '/document-templates',
    {
      schema: {
        tags,
        summary: 'List document templates',
        querystring: listQuerySchema(documentTemplateListSpec),
        response: { 200: paginated(DocumentTemplateListItem), ...errors(400) },
      },
    },
    (req) => listDocumentTemplates(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
  app.get(
    '/document-templates/:key',
    {
      schema: {
        tags,
        summary: 'Retrieve a document template',
        params: TemplateKeyParam,
        response: { 200: DocumentTemplate, ...errors(400, 404) },
      },
    },
    (req) => getDocumentTemplate(ctx.db, req.principal.workspaceId, req.params.key),
  );
  app.post(
    '/document-templates/:key/versions',
    {
      // 1 MB of HTML can double in JSON (every quote escaped); the content's own limit is checked after
      bodyLimit: 3 * 1024 * 1024,
      schema: {
        tags,
        summary: 'Add a version (a draft)',
        description:
          'The new version is a draft numbered after the last one; it is used once published. The content is compiled at once: a syntax error is a 400 naming `content`.',
        params: TemplateKeyParam,
        body: DocumentTemplateVersionCreate,
        response: { 201: DocumentTemplateVersion, ...errors(400, 404, 413) },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(
          await createDocumentTemplateVersion(
            ctx.db,
            req.principal.workspaceId,
            req.params.key,
            req.body.content,
          ),
        ),
  );
  app.get(
    '/document-templates/:key/versions/:number',
    {
      schema: {
        tags,
        summary: 'Retrieve a version',
        params: TemplateVersionParams,
        response: { 200: DocumentTemplateVersion, ...errors(400, 404) },
      },
    },
    (req) => getDocumentTemplateVersion(ctx.db, req.principal.workspaceId, req.params.key, req.params.number),
  );
  app.post(
    '/document-templates/:key/versions/:number/publish',
    {
      schema: {
        tags,
        summary: 'Publish a version',
        description:
          'The version becomes the one in use: the version published last is used (publishing an older one again rolls back to it). Signature requests already started keep the document they froze.',
        params: TemplateVersionParams,
        response: { 200: DocumentTemplateVersion, ...errors(400, 404) },
      },
    },
    (req) =>
      publishDocumentTemplateVersion(ctx.db, req.principal.workspaceId, req.params.key, req.params.number),
  );
  app.post(
    '/cases/:id/document-templates/:key/render',
    {
      schema: {
        tags: ['Cases'],
        summary: 'Render a document template for a case',
        description:
          'The PDF of the template’s published version filled with the case’s data, answered synchronously. ' +
          'Placeholders with no value render empty and are listed in the `X-Missing-Placeholders` header ' +
          '(comma-separated paths, at most 100; `X-Missing-Placeholders-Count` gives the total). ' +
          '`X-Document-Template-Version` and `X-Document-Pages` say which version was used and how many pages it made. ' +
          '400 `DOCUMENT_TEMPLATE_NOT_PUBLISHED` when the template has only drafts, 400 `CASE_REPORT_RENDER_FAILED` when the template fails to render, ' +
          '502 `CASE_REPORT_RENDER_FAILED` when no browser is available to print it.',
        params: RenderParams,
        body: RenderBody,
        response: {
          200: {
            description: 'The rendered document',
            headers: {
              'X-Missing-Placeholders': {
                type: 'string',
                description:
                  'The placeholder paths read without a value, comma-separated and sorted (at most 100; characters outside A-Za-z0-9_.[]- percent-encoded); empty when none',
              },
              'X-Missing-Placeholders-Count': {
                type: 'string',
                description: 'How many placeholder paths had no value in all (a decimal integer)',
              },
              'X-Document-Template-Version': {
                type: 'string',
                description: 'The number of the published version rendered',
              },
              'X-Document-Pages': { type: 'string', description: "The PDF's page count" },
            },
            content: { 'application/pdf': { schema: FileBytes } },
          },
          ...errors(400, 404, 502),
        },
      },
      // the body is optional: none means no signer (a JSON null is a body, refused as elsewhere)
      preValidation: async (req) => {
        if (req.body === undefined) req.body = {};
      },
    },
    async (req, reply) => {
      const out = await renderDocumentTemplate(
        ctx,
        req.principal.workspaceId,
        req.params.id,
        req.params.key,
        req.body.individual_id,
      );
      reply.type('application/pdf').header('cache-control', 'private, no-store').headers(out.headers);
      return reply.send(out.pdf);
    },
  );
}
