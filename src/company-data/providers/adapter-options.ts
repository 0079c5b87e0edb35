import { RegistryError } from '../provider.ts';
import type { CompanyProfile } from '../schemas.ts';
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
  /**
   * The ISO 20275 list (`getLegalForms`), when one is available: names the ELF code of a profile the
   * adapter could not label itself (GLEIF gives codes only). Optional: without it the label stays null.
   */
  legalForms?: () => Promise<LegalFormLabels | null>;
}

/** What the adapters need of the legal-form index (`src/company-data/legal-forms/`). */
export interface LegalFormLabels {
  label(code: string): string | null;
}

/**
 * The profile with `entity_legal_form_label` taken from the ELF list, as every company shows it
 * (`src/companies/present.ts`): the list's label (its names in every language joined with ", "),
 * null when the list has no active form of that code. An adapter's own label (a table's English name,
 * "Private Limited Company" where the list says "Private Limited Company, cyfyngedig") is kept only
 * when no list can be read: the fetched profile and the company created from it then say the same.
 */
export async function withElfLabel(
  profile: CompanyProfile,
  legalForms: RegistryAdapterOptions['legalForms'],
): Promise<CompanyProfile> {
  if (!profile.entity_legal_form || !legalForms) return profile;
  // The list is a nicety here: a list that cannot be read leaves the adapter's label, not the fetch failed.
  const index = await legalForms().catch(() => null);
  if (!index) return profile;
  const label = index.label(profile.entity_legal_form);
  return { ...profile, entity_legal_form_label: label, legal_form: profile.legal_form ?? label };
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

/** The same test without narrowing, for parsers whose input is typed after the documentation. */
export const isRecord = (v: unknown): boolean => isObject(v);

/**
 * A typed registration number without the separators people write in it: spaces (no-break ones
 * too), dots, hyphens and slashes ("552 100 554", "552.100.554", "912-345-678"). Registry numbers
 * of the countries served here are letters and digits only.
 */
export const compactNumber = (typed: string | undefined): string | undefined =>
  typed?.replace(/[\s.\-/]+/g, '');
