import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { presentCase } from '../cases/present.ts';
import { lockCase } from '../cases/repository.ts';
import type { CaseRow } from '../db/schema.ts';
import { recordEvents } from '../events/record-event.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { ensureDefaultPortal, findPortal } from './default-portal.ts';
import { issueLink, linkExpiry } from './links.ts';
import type { ShareLinkBody } from './schemas.ts';

/**
 * POST /v1/cases/{id}/share-client-portal-link: a case-wide link for the case's business contact.
 * Each precondition is its own 400 naming the field and the reason. The contact's earlier case-wide
 * links stop working (issueLink revokes them), and the case remembers the portal (its detailed
 * `client_portal`), all in one transaction.
 */
export async function shareClientPortalLink(
  ctx: AppContext,
  workspaceId: string,
  caseId: string,
  input: Static<typeof ShareLinkBody>,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const kase = await lockCase(trx, workspaceId, caseId);
    if (!kase) throw notFound('Case');
    if (kase.status === 'closed') {
      throw badRequest('The case is closed: no client portal link can be shared for it', 'id');
    }
    const portal = input.client_portal_id
      ? await findPortal(trx, workspaceId, input.client_portal_id)
      : await ensureDefaultPortal(trx, workspaceId);
    if (!portal) throw notFound('Client portal', 'client_portal_id');
    if (portal.status !== 'online') {
      throw badRequest(
        `The client portal "${portal.name}" is offline: put it online (PATCH /v1/client-portals/${portal.id}) before sharing a link`,
        'client_portal_id',
      );
    }
    const contact = await trx
      .selectFrom('individuals')
      .select(['id', 'first_name', 'last_name', 'email', 'is_relevant', 'is_business_contact'])
      .where('workspace_id', '=', workspaceId)
      .where('case_id', '=', kase.id)
      .where('id', '=', input.business_contact_id)
      .executeTakeFirst();
    const field = 'business_contact_id';
    if (!contact) throw badRequest('business_contact_id is not an individual of this case', field);
    if (!contact.is_relevant) {
      throw badRequest('business_contact_id is marked not relevant in this case', field);
    }
    if (!contact.email) throw badRequest('business_contact_id has no e-mail address', field);
    if (!contact.is_business_contact) {
      throw badRequest('business_contact_id is not a business contact (is_business_contact is false)', field);
    }
    const link = await issueLink(trx, ctx, {
      workspaceId,
      caseId: kase.id,
      individualId: contact.id,
      clientPortalId: portal.id,
      checkId: null,
      expiresAt: linkExpiry(ctx),
    });
    if (kase.client_portal_id !== portal.id) {
      // another portal: its wait steps start afresh
      const updated = await trx
        .updateTable('cases')
        .set({
          client_portal_id: portal.id,
          client_portal_wait_step_key: null,
          completed_wait_step_keys: [],
          updated_at: sql`now()`,
        })
        .where('id', '=', kase.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      // the case's `client_portal` changed with its updated_at: receivers hear of it as of any
      // change of the case (no sub-event: the reference has none for it, and no activity)
      await recordEvents(trx, workspaceId, [
        { type: 'Case.Updated', case_id: kase.id, payload: { case: presentCase(updated as CaseRow) } },
      ]);
    }
    return {
      case_id: kase.id,
      client_portal_id: portal.id,
      business_contact: {
        id: contact.id,
        first_name: contact.first_name,
        last_name: contact.last_name,
        email: contact.email,
      },
      link: link.url,
      expires_at: link.expiresAt.toISOString(),
    };
  });
}
