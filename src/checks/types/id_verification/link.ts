import type { AppContext } from '../../../app-context.ts';
import { issueLink, linkExpiry, revokeLinks } from '../../../client-portals/links.ts';
import type { Db } from '../../../db/connect.ts';
import type { CheckRow } from '../../../db/schema.ts';
import { badRequest } from '../../../http/errors.ts';
import { iso } from '../../../shared/time.ts';
import { updateCheckData } from '../../engine/apply-change.ts';

/**
 * Issues the check's portal link (a link scoped to this one check, for the check's individual as
 * the contact) and writes it to `data.vendor.verification_url` with its expiry, in `trx`. Any
 * earlier link of the check is revoked first: the old URL stops working. The URL is kept in the
 * check's data because the API hands it out again on GET (the link table keeps only the token's
 * hash); whoever can read the check could issue a new link anyway.
 */
export async function issueVerificationLink(
  ctx: AppContext,
  trx: Db,
  check: CheckRow,
  /** The request's field the refusal names (the check's person on creation, the check on refresh). */
  path: string,
): Promise<CheckRow> {
  // closing a case revoked its links and sharing one is refused while it is closed: a check's own
  // link must not reopen it to the contact
  const kase = await trx
    .selectFrom('cases')
    .select('status')
    .where('id', '=', check.case_id)
    .executeTakeFirstOrThrow();
  if (kase.status === 'closed') {
    throw badRequest(
      `The case is closed: no verification link can be issued for it (reopen it first: PATCH /v1/cases/${check.case_id} {"status": "open"})`,
      path,
    );
  }
  await revokeLinks(trx, { checkId: check.id });
  const link = await issueLink(trx, ctx, {
    workspaceId: check.workspace_id,
    caseId: check.case_id,
    individualId: check.individual_id as string,
    checkId: check.id,
    expiresAt: linkExpiry(ctx),
  });
  const data = check.data as Record<string, unknown>;
  return updateCheckData(trx, check, {
    ...data,
    vendor: {
      ...(data.vendor as Record<string, unknown>),
      verification_url: link.url,
      verification_url_expires_at: iso(link.expiresAt),
    },
  });
}
