import type { Db } from '../db/connect.ts';
import { badRequest } from '../http/errors.ts';
import { UUID_RE } from '../shared/pg-errors.ts';

/**
 * The spec makes external_id usable in place of the id in a case's path. `.` and `..` never reach
 * the server as a path segment: URL parsers (fetch, `new URL`, curl) remove dot segments, even
 * percent-encoded ones, so `/v1/cases/%2E` becomes `/v1/cases/` (the case list). Refused on create
 * and update, where the client can still choose another value.
 */
export function assertPathUsableExternalId(externalId: string | null | undefined): void {
  // `ext-1` and ` ext-1` were two cases, and "  " a case found at /v1/cases/%20%20: an identifier
  // from another system has no surrounding spaces (a stray one got past the uniqueness clients rely on)
  if (externalId != null && externalId.trim() !== externalId) {
    throw badRequest(
      externalId.trim() ? 'external_id must not start or end with a space' : 'external_id must not be blank',
      'external_id',
    );
  }
  if (externalId === '.' || externalId === '..') {
    throw badRequest(
      `external_id "${externalId}" cannot be used in a URL path (clients remove it as a dot segment); choose another`,
      'external_id',
    );
  }
}

/**
 * A case's path takes its id or its external_id, the id first: an external_id that is another case's
 * id (of this workspace) would name that other case in every path, so a PATCH "by external_id"
 * changed the wrong case. Refused on create and update (its own id is harmless: it names itself).
 */
export async function assertNotAnotherCaseId(
  db: Db,
  workspaceId: string,
  externalId: string | null | undefined,
  ownId?: string,
): Promise<void> {
  if (!externalId || !UUID_RE.test(externalId) || externalId === ownId) return;
  const other = await db
    .selectFrom('cases')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', externalId)
    // a deleted case's id names it no more (its path is a 404): that value is free
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (other) {
    throw badRequest(
      `external_id ${externalId} is the id of another case of this workspace: in a path it would name that case; choose another`,
      'external_id',
    );
  }
}
