import { createHmac, randomBytes } from 'node:crypto';
import { badRequest } from '../http/errors.ts';
import { RESERVED_SIGNATURE_HEADERS } from './schemas.ts';

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">`. A `whsec_<base64>` secret signs with its decoded bytes; any other secret
 * with its UTF-8 bytes: one per character, as the library's `{ format: 'raw' }` reads it, since
 * custom secrets are printable ASCII (isValidSecret).
 */
export function generateSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function secretKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice(6), 'base64') : Buffer.from(secret, 'utf8');
}

/**
 * A custom secret that is not `whsec_<base64>` is printable ASCII: its UTF-8 bytes, the key, are
 * then one byte per character, as every Standard Webhooks library reads a raw secret string. A
 * non-ASCII one was accepted and signed with its UTF-8 bytes, which the JavaScript library's
 * `{ format: 'raw' }` does not (it takes each character's code, cut to a byte): the docs' recipe
 * failed to verify every delivery.
 */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

export function isValidSecret(secret: string): boolean {
  if (!secret.startsWith('whsec_')) return secret.length >= 16 && PRINTABLE_ASCII.test(secret);
  const b64 = secret.slice(6);
  return /^[A-Za-z0-9+/]+={0,2}$/.test(b64) && Buffer.from(b64, 'base64').length >= 16;
}

/** Refuses a secret given to a webhook that `isValidSecret` does not accept (400 naming `secret`). */
export function assertSecret(secret: string): void {
  if (isValidSecret(secret)) return;
  throw badRequest(
    'secret must be whsec_<base64 of at least 16 bytes> or at least 16 printable ASCII characters (letters, digits, punctuation, spaces: no accented letters or other non-ASCII characters)',
    'secret',
  );
}

/** The `webhook-signature` header: one `v1,` signature per secret, space-separated. */
export function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map(
      (s) => `v1,${createHmac('sha256', secretKey(s)).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
    )
    .join(' ');
}

/**
 * The `hmac_sha256_hex` scheme, for receivers written for the reference product: the lower-case hex
 * HMAC-SHA256 of the raw body, keyed with the secret string's UTF-8 bytes (as such receivers do
 * with the secret they were given; no `whsec_` decoding). One signature: the current secret's.
 */
export function hexSignature(secret: string, body: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/**
 * Refuses a `signature_header` the delivery sets itself, or one given to a webhook whose signature
 * (`mode`: as the write leaves it) is not `hmac_sha256_hex`: it would be stored unseen (the API shows
 * null there) and used the day the mode changes (400 naming the field).
 */
export function assertSignatureHeader(name: string | null | undefined, mode: string): void {
  if (name && mode !== 'hmac_sha256_hex') {
    throw badRequest(
      `signature_header applies only to the signature hmac_sha256_hex (this webhook's is ${mode}): send both, or leave it out`,
      'signature_header',
    );
  }
  if (name && RESERVED_SIGNATURE_HEADERS.has(name.toLowerCase())) {
    throw badRequest(
      `signature_header cannot be ${name.toLowerCase()}: every delivery sets that header itself`,
      'signature_header',
    );
  }
}
