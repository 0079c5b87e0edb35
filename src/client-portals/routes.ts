import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors, IdParam } from '../http/common-schemas.ts';
import { SECRET_ANSWER } from '../http/idempotency.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { completeClientPortalWaitStep } from './complete-wait-step.ts';
import {
  clientPortalListSpec,
  getClientPortal,
  listClientPortals,
  updateClientPortal,
} from './manage-portals.ts';
import {
  ClientPortal,
  ClientPortalUpdate,
  CompleteWaitStepBody,
  CompleteWaitStepResponse,
  ShareLinkBody,
  ShareLinkResponse,
} from './schemas.ts';
import { shareClientPortalLink } from './share-link.ts';

const CaseUuidParam = Type.Object({ id: Type.String({ format: 'uuid', description: 'Id of the case' }) });

export function registerClientPortalRoutes(app: App, ctx: AppContext): void {
  const tags = ['Client portal'];
  app.get(
    '/client-portals',
    {
      schema: {
        tags,
        summary: "List the workspace's client portals",
        description: 'A workspace always has a default portal (created on first use).',
        querystring: listQuerySchema(clientPortalListSpec),
        response: { 200: paginated(ClientPortal), ...errors(400) },
      },
    },
    (req) => listClientPortals(ctx, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
  app.get(
    '/client-portals/:id',
    {
      schema: {
        tags,
        summary: 'Retrieve a client portal',
        params: IdParam,
        response: { 200: ClientPortal, ...errors(400, 404) },
      },
    },
    (req) => getClientPortal(ctx, req.principal.workspaceId, req.params.id),
  );
  app.patch(
    '/client-portals/:id',
    {
      schema: {
        tags,
        summary: 'Update a client portal',
        description:
          'Name, status (`offline`: no link can be shared and open links stop working until it is online again), default language, branding (accent colour, logo from an upload) and wait steps. Only the fields given change.',
        params: IdParam,
        body: ClientPortalUpdate,
        response: { 200: ClientPortal, ...errors(400, 404) },
      },
    },
    (req) => updateClientPortal(ctx, req.principal.workspaceId, req.params.id, req.body),
  );
  app.post(
    '/cases/:id/share-client-portal-link',
    {
      config: SECRET_ANSWER,
      schema: {
        tags,
        summary: 'Share a client portal link with the case’s business contact',
        description:
          'The contact must be an individual of the case, relevant, with an e-mail and `is_business_contact: true`; the portal must be online and the case not closed (each a 400 saying which). The link carries a random token (only its hash is stored) valid for VERICASE_PORTAL_LINK_TTL_HOURS. A link stops working (the portal answers 401 PORTAL_LINK_REVOKED) when it is shared again (the earlier one is revoked), when the case is closed or deleted, and when the person stops being the contact it was given to: marked not relevant, `is_business_contact` set to false, or the e-mail removed or changed to another address. Deleting the individual withdraws their links too. A revoked link stays revoked: share a new one.',
        params: CaseUuidParam,
        body: ShareLinkBody,
        response: { 201: ShareLinkResponse, ...errors(400, 404) },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await shareClientPortalLink(ctx, req.principal.workspaceId, req.params.id, req.body)),
  );
  app.post(
    '/cases/:id/complete-client-portal-wait-step',
    {
      schema: {
        tags,
        summary: 'Complete a client portal wait step',
        description:
          'Releases the wait step the contact waits on (default), or completes the named `wait_step_key` of the case’s portal ahead of time. 400 when the key is not a step of the portal, is already completed, or nothing is waiting.',
        params: CaseUuidParam,
        body: CompleteWaitStepBody,
        response: { 200: CompleteWaitStepResponse, ...errors(400, 404) },
      },
    },
    (req) => completeClientPortalWaitStep(ctx, req.principal.workspaceId, req.params.id, req.body),
  );
}
