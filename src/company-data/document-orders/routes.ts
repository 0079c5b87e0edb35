import type { App, AppContext } from '../../app-context.ts';
import { errors, IdParam } from '../../http/common-schemas.ts';
import { DocumentOrder, DocumentOrderCreate } from '../schemas.ts';
import { createDocumentOrder } from './create-document-order.ts';
import { getDocumentOrder } from './get-document-order.ts';
import { listAvailableDocuments } from './list-available-documents.ts';
import { AvailableDocumentList, AvailableDocumentsQuery } from './schemas.ts';

/** Registry documents of a company: what can be ordered, orders and their state. */
export function registerDocumentOrderRoutes(app: App, ctx: AppContext): void {
  const tags = ['Company data'];
  app.get(
    '/company-data/available-documents',
    {
      schema: {
        tags,
        summary: 'List the documents that can be ordered for a company',
        description:
          'Either `company_id` (a company of the workspace, by its country and registration number) or `country` with `registration_number`. A country no registry provider serves is a 400; a registry that fails is a 502 or 503.',
        querystring: AvailableDocumentsQuery,
        response: { 200: AvailableDocumentList, ...errors(400, 404, 502, 503) },
      },
    },
    (req) => listAvailableDocuments(ctx, req.principal.workspaceId, req.query),
  );
  app.post(
    '/company-data/document-orders',
    {
      schema: {
        tags,
        summary: 'Order a document for a company',
        description:
          'The `product_ref` must be one listed by `GET /v1/company-data/available-documents` for the company. The order is `created`, then `processing`, then `completed` with a `file_id` (download it with `GET /v1/files/{id}`) or `failed` with a `failure_reason`; `DocumentOrder.Completed` or `DocumentOrder.Failed` is sent to webhooks.',
        body: DocumentOrderCreate,
        response: { 201: DocumentOrder, ...errors(400, 404, 502, 503) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await createDocumentOrder(ctx, req.principal.workspaceId, req.body)),
  );
  app.get(
    '/company-data/document-orders/:id',
    {
      schema: {
        tags,
        summary: 'Retrieve a document order',
        description:
          'Not in the reference product (which reports orders through webhooks and the company only).',
        params: IdParam,
        response: { 200: DocumentOrder, ...errors(400, 404) },
      },
    },
    (req) => getDocumentOrder(ctx.db, req.principal.workspaceId, req.params.id),
  );
}
