import { createHash, randomBytes } from 'node:crypto';

/**
 * API keys are 256-bit random secrets. They are shown once and stored only as a SHA-256 hash:
 * a slow password hash adds nothing for secrets with this much entropy, and auth stays one lookup.
 */
export const KEY_PREFIX = 'vk_';

export function generateApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** What we keep to recognise a key in listings without keeping the key. */
export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 6);
}
