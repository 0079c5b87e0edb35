import { sql } from 'kysely';
import type { App, AppContext } from '../app-context.ts';
import { checkTypeDefinition } from '../checks/registry.ts';
import { findLinkByToken, isWithdrawnToken } from '../client-portals/links.ts';
import type { Db } from '../db/connect.ts';
import type { ClientPortalLinkRow, ClientPortalRow } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { runInRequestScope } from '../shared/request-scope.ts';

/** What a portal request is authorised as: one link (case, contact, maybe one check) and its portal. */
export interface PortalAccess {
  link: ClientPortalLinkRow;
  portal: ClientPortalRow;
}

declare module 'fastify' {
  interface FastifyRequest {
    portalAccess: PortalAccess;
  }
}

/** Longest token read: `vcp_` + 43 base64url characters, with room to spare. */
const MAX_TOKEN_LENGTH = 200;

/**
 * A 401 of the portal. The code tells the page which message to show in its own language; the
 * message says it in English for anyone else.
 */
const refused = (code: string, message: string) => new ApiError(401, message, undefined, code);

const unknownLink = () => refused('PORTAL_LINK_UNKNOWN', 'This portal link is not valid: check the address');
const revokedLink = () =>
  refused('PORTAL_LINK_REVOKED', 'This portal link was replaced or withdrawn: ask for a new one');
const expiredLink = () => refused('PORTAL_LINK_EXPIRED', 'This portal link has expired: ask for a new one');

/**
 * The 401 for a link past its `expires_at`: a check link whose type has words of its own for it (a
 * signing link: docs/electronic-signature.md, "The signing link") gets its code, so the page can say
 * how to get a new one in any tab, not only in one that had seen the link working; any other, the
 * generic PORTAL_LINK_EXPIRED. One lookup, on this refusal only.
 */
async function expiredRefusal(db: Db, link: ClientPortalLinkRow): Promise<ApiError> {
  if (!link.check_id) return expiredLink();
  const check = await db
    .selectFrom('checks')
    .select('type')
    .where('id', '=', link.check_id)
    .where('workspace_id', '=', link.workspace_id)
    .executeTakeFirst();
  const own = check ? checkTypeDefinition(check.type)?.portal?.expiredLink : undefined;
  return own ? refused(own.code, own.message) : expiredLink();
}

/**
 * Re-checks, inside a portal write's transaction and as its first statement, that the request's link
 * is still live and its case not deleted, and holds both rows until the write commits: the case
 * `FOR NO KEY UPDATE` (the lock every write under a case takes first, so the order is the usual
 * one), then the link `FOR SHARE`. Whatever withdraws a link updates its row (revoked_at: a contact
 * leaving the case, a replaced link, a closed or soft-deleted case) or deletes it (the individual or
 * the check deleted, the case erased: answered as withdrawn too), under the case's
 * lock; it therefore either committed before this statement, which then sees it and refuses as the
 * authorisation would have, or waits until the write has committed. A write authorised before a
 * revocation never lands after it. One statement, two primary-key lookups.
 */
export async function lockLiveLink(trx: Db, link: ClientPortalLinkRow): Promise<void> {
  // the locking clauses lock in the order written: the case, then the link
  const row = await trx
    .selectFrom('cases as c')
    .innerJoin('client_portal_links as l', 'l.case_id', 'c.id')
    .select(['l.revoked_at', 'l.expires_at', 'c.deleted_at', 'c.status'])
    .where('c.id', '=', link.case_id)
    .where('l.id', '=', link.id)
    .forNoKeyUpdate(['c'])
    .forShare(['l'])
    .executeTakeFirst();
  // gone since the request was authorised: deleted with its individual, check or case
  if (!row) throw revokedLink();
  // a closed case's links were revoked by the review that closed it; none is issued while it is
  // closed (a link reaching one anyway is refused as withdrawn)
  if (row.revoked_at || row.deleted_at || row.status === 'closed') throw revokedLink();
  if (row.expires_at.getTime() <= Date.now()) throw await expiredRefusal(trx, link);
}

/** last_used_at is written at most this often per link: a page's burst of calls makes one write. */
const LAST_USED_RESOLUTION = "interval '1 minute'";

/**
 * Authorises every route of the portal's API (`scope`) by `Authorization: Bearer <token>` only: the
 * token of a client portal link, looked up by its hash. The API key is not read here (its hook is
 * registered on /v1 only), so a key sent as a bearer token is an unknown link. Everything a request
 * may reach then follows from the link: its workspace, case, contact and, for a check link, check.
 * Events recorded while serving the request name the contact as their actor.
 */
export function registerPortalAuth(scope: App, ctx: AppContext): void {
  scope.decorateRequest('portalAccess', null as unknown as PortalAccess);
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match || match[1].length > MAX_TOKEN_LENGTH) {
      throw refused(
        'PORTAL_LINK_MISSING',
        'Missing portal link token: send it as Authorization: Bearer <token> (the token of the link)',
      );
    }
    // a token matching nothing costs two lookups: not for an IP sending made-up ones
    const tooMany = scope.authFailures.refusal(request.ip, match[1]);
    if (tooMany) throw tooMany;
    const link = await findLinkByToken(ctx.db, match[1]);
    // a link deleted with its individual, check or erased case was withdrawn, not unknown (until it
    // would have expired anyway): its page says so
    if (!link) {
      if (await isWithdrawnToken(ctx.db, match[1])) throw revokedLink();
      scope.authFailures.failed(request.ip);
      throw unknownLink();
    }
    scope.authFailures.vouch(match[1]);
    if (link.revoked_at) throw revokedLink();
    if (link.expires_at.getTime() <= Date.now()) throw await expiredRefusal(ctx.db, link);
    // the portal, provided the case is still there: a deleted case takes its links with it
    const portal = await ctx.db
      .selectFrom('client_portals as p')
      .innerJoin('cases as c', (j) =>
        j
          .on('c.id', '=', link.case_id)
          .on('c.workspace_id', '=', link.workspace_id)
          .on('c.deleted_at', 'is', null)
          // closing a case revokes its links (and none is issued while it is closed): refused as
          // withdrawn, whatever link reaches it
          .on('c.status', '<>', 'closed'),
      )
      .selectAll('p')
      .where('p.id', '=', link.client_portal_id)
      .where('p.workspace_id', '=', link.workspace_id)
      .executeTakeFirst();
    if (!portal) throw revokedLink();
    if (portal.status !== 'online') {
      throw new ApiError(403, 'This portal is offline for now: try again later', undefined, 'PORTAL_OFFLINE');
    }
    await ctx.db
      .updateTable('client_portal_links')
      .set({ last_used_at: sql`now()` })
      .where('id', '=', link.id)
      .where((eb) =>
        eb.or([
          eb('last_used_at', 'is', null),
          eb('last_used_at', '<', sql<Date>`now() - ${sql.raw(LAST_USED_RESOLUTION)}`),
        ]),
      )
      .execute();
    request.portalAccess = { link, portal };
  });
  // like the API key's scope: the handler runs as the contact, so the events it records say so
  scope.addHook('preHandler', (request, _reply, done) => {
    runInRequestScope({ contactIndividualId: request.portalAccess.link.individual_id }, done);
  });
}
