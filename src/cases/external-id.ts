import { badRequest } from '../http/errors.ts';

/**
 * The spec makes external_id usable in place of the id in a case's path. `.` and `..` never reach
 * the server as a path segment: URL parsers (fetch, `new URL`, curl) remove dot segments, even
 * percent-encoded ones, so `/v1/cases/%2E` becomes `/v1/cases/` (the case list). Refused on create
 * and update, where the client can still choose another value.
 */
export function assertPathUsableExternalId(externalId: string | null | undefined): void {
  if (externalId === '.' || externalId === '..') {
    throw badRequest(
      `external_id "${externalId}" cannot be used in a URL path (clients remove it as a dot segment); choose another`,
      'external_id',
    );
  }
}
