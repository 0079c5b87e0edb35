/**
 * Conditional writes (RFC 9110 §13.1.1): a check and a case answer their version as a strong `ETag`
 * (their `updated_at`, quoted), and their review writes take an optional `If-Match` with it. A stale
 * version is a 412 and writes nothing, so a decision taken on what a tab showed a minute ago does not
 * silently replace the one another person recorded meanwhile. Without the header a write is made as
 * before (the reference API has none).
 */
import type { FastifyReply } from 'fastify';
import { ApiError, badRequest } from './errors.ts';

/** `*` (any current version), or the entity tags listed, as sent (`W/` kept: it never matches). */
export type IfMatch = '*' | readonly string[];

/** The strong entity tag of a version: its `updated_at` as the API writes it, quoted. */
export function versionTag(updatedAt: Date | string): string {
  return `"${new Date(updatedAt).toISOString()}"`;
}

/** Sets the `ETag` of an answer that is the resource as it now is (a read, or a write's result). */
export function sendVersion(reply: FastifyReply, updatedAt: Date | string): void {
  reply.header('etag', versionTag(updatedAt));
}

// a list of entity tags, possibly weak, with the optional white space and empty elements RFC 9110's
// list syntax allows; etagc is %x21 / %x23-7E / obs-text
const TAG = String.raw`(?:W/)?"[\x21\x23-\x7e\x80-\xff]*"`;
const TAG_LIST = new RegExp(String.raw`^[\s,]*${TAG}(?:\s*,[\s,]*${TAG})*[\s,]*$`);
const TAGS = new RegExp(TAG, 'g');

/**
 * The request's `If-Match`, undefined when it has none. A value that is neither `*` nor a list of
 * quoted entity tags (an `updated_at` sent without its quotes) is a 400 naming the header: taken as
 * "no condition", the write would have gone through unguarded.
 */
export function readIfMatch(header: string | string[] | undefined): IfMatch | undefined {
  if (header === undefined) return undefined;
  const value = (Array.isArray(header) ? header.join(', ') : header).trim();
  if (value === '*') return '*';
  if (!TAG_LIST.test(value)) {
    throw badRequest(
      `If-Match must be * or entity tags in double quotes, as the resource's ETag header gives them (e.g. "2026-01-02T03:04:05.678Z"): it is ${JSON.stringify(value.slice(0, 100))}`,
      'If-Match',
    );
  }
  return value.match(TAGS) ?? [];
}

/**
 * Throws the 412 unless `condition` names the version `updatedAt` is (strong comparison: a weak tag
 * never matches). Called in the write's transaction, on the row it has locked: two writes sent with
 * the same tag are one success and one 412, whatever their timing.
 */
export function assertVersion(
  condition: IfMatch | undefined,
  updatedAt: Date | string,
  what: 'check' | 'case',
): void {
  if (condition === undefined || condition === '*') return;
  const current = versionTag(updatedAt);
  if (condition.includes(current)) return;
  const now = new Date(updatedAt).toISOString();
  // the current version sent as a weak tag: nothing changed, the tag's form is what refuses it
  if (condition.includes(`W/${current}`)) {
    throw new ApiError(
      412,
      `A weak entity tag (W/${current}) never matches a write's If-Match: send the ETag as it was given, ${current}`,
      [
        {
          path: 'If-Match',
          message: `W/${current} is a weak entity tag: If-Match compares strong tags only`,
        },
      ],
    );
  }
  throw new ApiError(412, `The ${what} changed since it was read (now updated_at ${now}): read it again`, [
    {
      path: 'If-Match',
      message: `If-Match ${condition.join(', ')} is not the ${what}'s current version: its ETag is now ${current}`,
    },
  ]);
}
