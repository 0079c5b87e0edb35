import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Console passwords: scrypt (node:crypto, no dependency) with a random 16-byte salt, stored as
 * `scrypt$N$r$p$salt$hash` (base64url) so the cost can be raised later and old hashes still verify.
 * N = 2^15, r = 8, p = 1 is OWASP's recommended minimum for scrypt (about 32 MiB and 50–100 ms).
 */
const N = 1 << 15;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

function derive(password: string, salt: Buffer, opts: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...opts, maxmem: 256 * opts.N * opts.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when `password` matches `stored`; false for a malformed or missing hash. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    // the same work as a real check, so a missing user or password answers in the same time
    await derive(password, DUMMY_SALT, { N, r: R, p: P });
    return false;
  }
  const [, n, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

const DUMMY_SALT = randomBytes(16);

/** A generated password: 20 characters (about 116 random bits), no look-alike characters. */
export function generatePassword(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(40);
  let out = '';
  for (const b of bytes) {
    if (b >= 256 - (256 % alphabet.length)) continue; // no modulo bias
    out += alphabet[b % alphabet.length];
    if (out.length === 20) break;
  }
  return out.length === 20 ? out : generatePassword();
}

/** Why a new password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  // ten spaces passed the length rule and signed in: a password of blanks only is no password
  if (/^\s*$/u.test(password)) return 'must not be only spaces';
  return null;
}
