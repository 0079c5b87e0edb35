/**
 * What the page says for an error of the portal's API, chosen by the error body's `code`: the
 * server's `message` is English for developers and is never shown. A code the page does not know
 * says the generic text, in the page's language.
 */
import type { Messages } from './messages.ts';

/**
 * What the page knows of a failed request: web/shared/http.ts's HttpError (status 0: no answer),
 * described by shape so that this file loads without the DOM (test/portal-messages.test.ts).
 */
interface Failed {
  status: number;
  body: unknown;
}
const failed = (err: unknown): err is Failed =>
  typeof err === 'object' && err !== null && typeof (err as Failed).status === 'number' && 'body' in err;

/**
 * The codes the portal's API answers with (src/portal, src/client-portals, the signing steps of
 * src/checks/types/electronic_signature, and src/http/errors.ts's per-status codes), each with its text.
 */
export const API_ERROR_KEYS = {
  // the link (src/portal/auth.ts)
  PORTAL_LINK_MISSING: 'unknownText',
  PORTAL_LINK_UNKNOWN: 'unknownText',
  PORTAL_LINK_REVOKED: 'withdrawnText',
  PORTAL_LINK_EXPIRED: 'linkExpiredText',
  // an expired signing link: a visit through the invitation issues a new one (electronic_signature's portal.ts)
  PORTAL_SIGNING_LINK_EXPIRED: 'expiredSigningText',
  PORTAL_OFFLINE: 'offlineText',
  // signing (src/checks/types/electronic_signature)
  SIGNATURE_CODE_RESEND_TOO_SOON: 'codeTooSoon',
  SIGNATURE_CODE_LIMIT_REACHED: 'codeLimitReached',
  SIGNATURE_CODE_NOT_SENT: 'errorCodeNotSent',
  SIGNATURE_ALREADY_COMPLETED: 'signatureAlreadyDone',
  // uploads (src/portal/upload.ts): the slot's field says it with the file's name (SlotField.tsx)
  FILE_NAME_MISMATCH: 'errorBadFormat',
  // an image over the pixel limit (a 413 that is not the 20 MB one)
  IMAGE_TOO_MANY_PIXELS: 'errorTooManyPixels',
  // by status (src/http/errors.ts)
  BAD_REQUEST: 'errorBadRequest',
  NOT_FOUND: 'errorNotFound',
  // the page calls each path with its own method: seen only from a page older than the service
  METHOD_NOT_ALLOWED: 'errorGeneric',
  PAYLOAD_TOO_LARGE: 'errorTooLarge',
  UNSUPPORTED_MEDIA_TYPE: 'errorBadFormat',
  TOO_MANY_REQUESTS: 'errorTooManyRequests',
  BAD_GATEWAY: 'errorUnavailable',
  SERVICE_UNAVAILABLE: 'errorUnavailable',
  INTERNAL_SERVER_ERROR: 'errorGeneric',
} as const satisfies Record<string, keyof Messages>;

/** The text for any other code, and for an error with none. */
export const API_ERROR_FALLBACK = 'errorGeneric' satisfies keyof Messages;

/** The error body's code (`{code, message, ...}`), if it has one. */
export function errorCode(err: unknown): string | null {
  const code = failed(err) ? (err.body as { code?: unknown } | null)?.code : undefined;
  return typeof code === 'string' ? code : null;
}

/** The dictionary key for an error: no answer at all (status 0) is the connection, else its code. */
export function apiErrorKey(err: unknown): keyof Messages {
  if (failed(err) && err.status === 0) return 'networkError';
  const code = errorCode(err);
  return code !== null && Object.hasOwn(API_ERROR_KEYS, code)
    ? API_ERROR_KEYS[code as keyof typeof API_ERROR_KEYS]
    : API_ERROR_FALLBACK;
}

/** The error, said in the page's language. */
export const apiErrorText = (t: (key: keyof Messages) => string, err: unknown): string => t(apiErrorKey(err));
