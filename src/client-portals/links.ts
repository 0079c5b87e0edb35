import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { AppContext } from '../app-context.ts';
import type { Db } from '../db/connect.ts';
import type { ClientPortalLinkRow } from '../db/schema.ts';
import { keepPendingUploadsFor } from '../portal/pending-files.ts';
import { serviceBaseUrl } from '../shared/service-url.ts';
import { ensureDefaultPortal } from './default-portal.ts';

// Portal links. A link is a random token (`vcp_` + 32 random bytes, base64url) scoped to one case
// and contact (and, for a check link, one check). Only its SHA-256 is stored: a database dump gives
// no usable link. The token travels in the URL fragment (`/portal/#token=...`), which browsers never
// send to the server, so it stays out of access logs and Referer headers.

export interface IssuedLink {
  id: string;
  token: string;
  url: string;
  expiresAt: Date;
}

/** SHA-256 hex of a token, as stored in client_portal_links.token_hash. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

function newToken(): string {
  return `vcp_${randomBytes(32).toString('base64url')}`;
}

/**
 * Revokes the earlier live links of the same (case, individual, check_id) scope, then issues one;
 * the pending uploads it shows live as long as it.
 */
export async function issueLink(
  trx: Db,
  ctx: AppContext,
  input: {
    workspaceId: string;
    caseId: string;
    individualId: string;
    /** default: the workspace's default portal */
    clientPortalId?: string | null;
    /** null: a case-wide link */
    checkId?: string | null;
    expiresAt: Date;
  },
): Promise<IssuedLink> {
  const portalId = input.clientPortalId ?? (await ensureDefaultPortal(trx, input.workspaceId)).id;
  const checkId = input.checkId ?? null;
  const now = new Date();
  let revoke = trx
    .updateTable('client_portal_links')
    .set({ revoked_at: now })
    .where('workspace_id', '=', input.workspaceId)
    .where('case_id', '=', input.caseId)
    .where('individual_id', '=', input.individualId)
    .where('revoked_at', 'is', null);
  revoke = checkId === null ? revoke.where('check_id', 'is', null) : revoke.where('check_id', '=', checkId);
  await revoke.execute();

  const token = newToken();
  const id = randomUUID();
  await trx
    .insertInto('client_portal_links')
    .values({
      id,
      workspace_id: input.workspaceId,
      client_portal_id: portalId,
      case_id: input.caseId,
      individual_id: input.individualId,
      check_id: checkId,
      token_hash: hashToken(token),
      expires_at: input.expiresAt,
    })
    .execute();
  await keepPendingUploadsFor(trx, {
    workspaceId: input.workspaceId,
    caseId: input.caseId,
    checkId,
    expiresAt: input.expiresAt,
  });
  const url = `${serviceBaseUrl(ctx.config)}/portal/#token=${token}`;
  return { id, token, url, expiresAt: input.expiresAt };
}

/** Revokes every live link of a case (the case closed) or of one check (a new verification URL). */
export async function revokeLinks(trx: Db, where: { caseId: string } | { checkId: string }): Promise<void> {
  let q = trx
    .updateTable('client_portal_links')
    .set({ revoked_at: new Date() })
    .where('revoked_at', 'is', null);
  q = 'caseId' in where ? q.where('case_id', '=', where.caseId) : q.where('check_id', '=', where.checkId);
  await q.execute();
}

/**
 * Keeps the token hashes of the links that are about to go with an individual (theirs, and those of
 * their checks), with one check (foreign keys delete them) or with an erased case (every link of
 * the case, its checks' included), so that the portal answers them as withdrawn links
 * (PORTAL_LINK_REVOKED) and not as unknown ones. Call it in the deletion's transaction, before the
 * delete.
 *
 * A row holds the hash, the workspace and the link's own `expires_at`, nothing of the person or the
 * case: it is compatible with an erasure. It serves only until the link would have expired anyway
 * (isWithdrawnToken ignores it after that: the token is then unknown), so a link already expired
 * is not kept at all, and each call drops the workspace's rows that are past it.
 */
export async function keepWithdrawnLinks(
  trx: Db,
  workspaceId: string,
  where: { individualId: string } | { checkId: string } | { caseId: string },
): Promise<void> {
  const now = new Date();
  await trx
    .deleteFrom('client_portal_withdrawn_links')
    .where('workspace_id', '=', workspaceId)
    .where('expires_at', '<=', now)
    .execute();
  let links = trx
    .selectFrom('client_portal_links')
    .select(['token_hash', 'workspace_id', 'expires_at'])
    .where('workspace_id', '=', workspaceId)
    .where('expires_at', '>', now);
  if ('checkId' in where) links = links.where('check_id', '=', where.checkId);
  else if ('caseId' in where) links = links.where('case_id', '=', where.caseId);
  else {
    const { individualId } = where;
    links = links.where((eb) =>
      eb.or([
        eb('individual_id', '=', individualId),
        eb('check_id', 'in', eb.selectFrom('checks').select('id').where('individual_id', '=', individualId)),
      ]),
    );
  }
  await trx
    .insertInto('client_portal_withdrawn_links')
    .columns(['token_hash', 'workspace_id', 'expires_at'])
    .expression(links)
    .onConflict((oc) => oc.column('token_hash').doNothing())
    .execute();
}

/**
 * Whether a token is one of a link deleted with its individual, check or case (keepWithdrawnLinks)
 * that would still be live otherwise: after the link's own expiry the token is unknown.
 */
export async function isWithdrawnToken(db: Db, token: string): Promise<boolean> {
  const row = await db
    .selectFrom('client_portal_withdrawn_links')
    .select('token_hash')
    .where('token_hash', '=', hashToken(token))
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
  return row !== undefined;
}

/** The link of a token when it is live (neither revoked nor expired), else undefined. */
export function findLiveLinkByToken(db: Db, token: string): Promise<ClientPortalLinkRow | undefined> {
  return db
    .selectFrom('client_portal_links')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', new Date())
    .executeTakeFirst();
}

/** Lifetime of a link issued now (VERICASE_PORTAL_LINK_TTL_HOURS). */
export function linkExpiry(ctx: AppContext, now: Date = new Date()): Date {
  return new Date(now.getTime() + ctx.config.portalLinkTtlHours * 3_600_000);
}

/**
 * The link of a token whatever its state (undefined when unknown), for telling an expired link from
 * a revoked or unknown one in the portal's 401 message.
 */
export function findLinkByToken(db: Db, token: string): Promise<ClientPortalLinkRow | undefined> {
  return db
    .selectFrom('client_portal_links')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
}
