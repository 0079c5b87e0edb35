import type { ProviderDocument } from '../../provider.ts';
import { text } from '../profile-parts.ts';

/**
 * Companies House filing history → orderable documents. Every filing with an image is free to download
 * through the Document API, so each one is a product: `filing:<transaction_id>`, instant, tier_0.
 */
export interface ChFiling {
  transaction_id?: string;
  category?: string;
  type?: string;
  date?: string;
  links?: { document_metadata?: string };
}

const CATEGORY_NAMES: Record<string, string> = {
  accounts: 'Accounts',
  'confirmation-statement': 'Confirmation statement',
  'annual-return': 'Annual return',
  incorporation: 'Incorporation documents',
  officers: 'Change of officers',
  address: 'Change of registered office',
  capital: 'Statement of capital',
  mortgage: 'Charge',
  resolution: 'Resolution',
  'persons-with-significant-control': 'Change of persons with significant control',
  'change-of-name': 'Change of name',
  insolvency: 'Insolvency',
  liquidation: 'Liquidation',
  dissolution: 'Dissolution',
  gazette: 'Gazette notice',
};

const PRODUCT = /^filing:([A-Za-z0-9_-]{1,100})$/;

export function filingDocuments(items: ChFiling[]): ProviderDocument[] {
  return items
    .filter(
      (f) =>
        text(f.transaction_id) && PRODUCT.test(`filing:${f.transaction_id}`) && f.links?.document_metadata,
    )
    .map((f) => ({
      name: filingName(f),
      product_ref: `filing:${f.transaction_id}`,
      price_tier: 'tier_0' as const,
      delivery: 'instant' as const,
      delivery_time: null,
      sample_url: null,
    }));
}

export function filingName(f: ChFiling): string {
  const category = f.category ?? 'filing';
  const label = CATEGORY_NAMES[category] ?? category.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
  return [label, f.type && `(${f.type})`, f.date && `filed ${f.date}`].filter(Boolean).join(' ');
}

/** The transaction id of a `filing:` product_ref, or null when it is not one of ours. */
export function transactionOf(productRef: string): string | null {
  return PRODUCT.exec(productRef)?.[1] ?? null;
}

/**
 * The document id from a filing's `document_metadata` link
 * (`https://frontend-doc-api.company-information.service.gov.uk/document/{id}`). Only the id is kept:
 * the key is never sent to a host the answer names, only to the configured Document API.
 */
export function documentIdOf(link: string | undefined): string | null {
  const m = /\/document\/([A-Za-z0-9_-]{1,200})\/?$/.exec(link ?? '');
  return m ? m[1] : null;
}

/**
 * The Document API lives on its own host next to the public data API; a proxy or a test double given
 * as the base URL serves both.
 */
export function documentApiUrl(baseUrl: string): string {
  return new URL(baseUrl).hostname === 'api.company-information.service.gov.uk'
    ? 'https://document-api.company-information.service.gov.uk'
    : baseUrl;
}
