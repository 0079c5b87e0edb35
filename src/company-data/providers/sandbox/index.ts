import type { CompanyRegistryProvider, RegistryCall } from '../../provider.ts';
import { RegistryError } from '../../provider.ts';
import { SANDBOX_DOCUMENTS } from './documents.ts';
import { extractPdf } from './extract-pdf.ts';
import type { LegalFormSource } from './legal-form.ts';
import { sandboxProfile } from './profile.ts';
import { sandboxSearch } from './search.ts';
import { decodeVendorRef } from './vendor-ref.ts';

export interface SandboxOptions {
  /** The ISO 20275 index when one is available (null: the built-in table). */
  legalForms: () => Promise<LegalFormSource | null>;
  /** How long an order takes (`VERICASE_SANDBOX_DELAY_MS`). */
  orderDelayMs: number;
}

/** Profile fetches per vendor_ref in this process, so tests can see the cache spare the provider. */
const fetchCounts = new Map<string, number>();
export const sandboxFetchCount = (vendorRef: string) => fetchCounts.get(vendorRef) ?? 0;

/**
 * The built-in deterministic registry: every country, no network, the rules of docs/sandbox.md.
 * A fetch answers the profile derived from the vendor_ref; `raw` is the profile as the sandbox
 * "registry" sent it.
 */
export function createSandboxProvider(opts: SandboxOptions): CompanyRegistryProvider {
  const profileOf = async (country: string, vendorRef: string) =>
    sandboxProfile(country, decodeVendorRef(vendorRef), await opts.legalForms());
  return {
    vendor: 'sandbox',
    async search(query) {
      return sandboxSearch(query);
    },
    async fetch(ref) {
      if (decodeVendorRef(ref.vendorRef).name.toLowerCase().includes('fetchfail')) {
        throw new RegistryError('sandbox', 'unavailable', 'sandbox outage on demand (fetchfail)');
      }
      const profile = await profileOf(ref.country, ref.vendorRef);
      fetchCounts.set(ref.vendorRef, sandboxFetchCount(ref.vendorRef) + 1);
      return { profile, raw: { source: 'sandbox', vendor_ref: ref.vendorRef, company: profile } };
    },
    async availableDocuments(ref) {
      decodeVendorRef(ref.vendorRef);
      return SANDBOX_DOCUMENTS.map((d) => ({ ...d }));
    },
    async orderDocument(ref, productRef, call) {
      const profile = await profileOf(ref.country, ref.vendorRef);
      await delay(opts.orderDelayMs, call);
      if (productRef.toLowerCase().includes('fail')) {
        throw new RegistryError('sandbox', 'refused', `the sandbox fails product_ref ${productRef}`);
      }
      const product = SANDBOX_DOCUMENTS.find((d) => d.product_ref === productRef);
      if (!product) throw new RegistryError('sandbox', 'refused', `unknown product_ref ${productRef}`);
      const slug = profile.registration_number.replace(/[^A-Za-z0-9]+/g, '-');
      return {
        filename: `${product.product_ref}-${profile.country}-${slug}.pdf`,
        contentType: 'application/pdf',
        bytes: await extractPdf(profile, product.name),
      };
    },
  };
}

function delay(ms: number, call: RegistryCall): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    call.signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new RegistryError('sandbox', 'unavailable', 'the order was abandoned'));
      },
      { once: true },
    );
  });
}
