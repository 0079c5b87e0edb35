import { RegistryError } from '../provider.ts';
import type { RegistryVendor } from '../vendors.ts';

/** What every real registry adapter is built from (`config.companyData`). */
export interface RegistryAdapterOptions {
  /** The registry API's base URL, without a trailing slash. */
  baseUrl: string;
  /** The registry's API key, for those that need one (Companies House). */
  apiKey?: string | null;
  /** Timeout of one HTTP attempt, in ms. */
  timeoutMs: number;
  /** Retries after a 5xx, a 429, a timeout or a connection error. */
  retries: number;
}

/** The registry answered 2xx with JSON that does not have the documented shape. */
export function unexpectedShape(vendor: RegistryVendor, what: string): RegistryError {
  return new RegistryError(vendor, 'bad_answer', `answered without the documented shape (${what})`);
}

/** Registries that sell or give no documents through a public API: an honest refusal. */
export function noDocuments(vendor: RegistryVendor, why: string): RegistryError {
  return new RegistryError(vendor, 'refused', `no document can be ordered through ${vendor}: ${why}`);
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
