import type { TSchema } from 'typebox';
import type { App, AppContext } from '../../../app-context.ts';
import { ensureDefaultPortal } from '../../../client-portals/default-portal.ts';
import { errors, IdParam } from '../../../http/common-schemas.ts';
import { badRequest, notFound } from '../../../http/errors.ts';
import type { CheckTypeDefinition } from '../../check-type.ts';
import { fullCheckSchema } from '../../envelope-schema.ts';
import { presentCheck } from '../../present.ts';
import { findCheck } from '../../repository.ts';
import { issueVerificationLink } from './link.ts';
import { IdVerificationData } from './schemas.ts';

/**
 * `POST /checks/id_verification/{id}/refresh_url`: a new portal link for the check while it waits
 * for the contact's capture; the previous link is revoked (its URL answers 401 from then on).
 */
async function refreshUrl(ctx: AppContext, workspaceId: string, def: CheckTypeDefinition, id: string) {
  const row = await ctx.db.transaction().execute(async (trx) => {
    const check = await findCheck(trx, workspaceId, id, true);
    if (!check || check.type !== def.type) throw notFound(`${def.type} check`);
    if (check.status !== 'in_progress') {
      throw badRequest(
        `The verification URL can be refreshed only while the check is in_progress; this one is ${check.status}`,
        'status',
      );
    }
    // a check's link goes through the workspace's default portal (issueLink): while that portal is
    // offline the new URL would open on 403 PORTAL_OFFLINE, so it is refused as sharing a case's
    // link is, naming the portal, and the current link is left as it is
    const portal = await ensureDefaultPortal(trx, workspaceId);
    if (portal.status !== 'online') {
      throw badRequest(
        `The client portal "${portal.name}" is offline: put it online (PATCH /v1/client-portals/${portal.id}) before refreshing the verification URL`,
        'client_portal_id',
      );
    }
    return issueVerificationLink(ctx, trx, check, 'id');
  });
  return presentCheck(row);
}

/** id_verification's own route (create, retrieve, review and force_review come from the engine). */
export function registerIdVerificationRoutes(app: App, ctx: AppContext, def: CheckTypeDefinition): void {
  const Full: TSchema = fullCheckSchema(def.type, def.targets, IdVerificationData);
  app.post(
    '/checks/id_verification/:id/refresh_url',
    {
      schema: {
        tags: ['Checks: id_verification'],
        summary: 'Issue a new verification URL for an id_verification check',
        description:
          'Only while the check is in_progress and the client portal is online (400 otherwise, naming status or client_portal_id). The previous URL stops working; the new one and its expiry are in data.vendor.verification_url and verification_url_expires_at.',
        params: IdParam,
        response: { 201: Full, ...errors(400, 404) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await refreshUrl(ctx, req.principal.workspaceId, def, req.params.id)),
  );
}
