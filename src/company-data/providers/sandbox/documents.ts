import type { ProviderDocument } from '../../provider.ts';

/** The sandbox's orderable documents: an instant registry extract and delayed articles. */
export const SANDBOX_DOCUMENTS: ProviderDocument[] = [
  {
    name: 'Registry extract',
    product_ref: 'sandbox_registry_extract',
    price_tier: 'tier_1',
    delivery: 'instant',
    delivery_time: null,
    sample_url: null,
  },
  {
    name: 'Articles of association',
    product_ref: 'sandbox_articles_of_association',
    price_tier: 'tier_2',
    delivery: 'delayed',
    delivery_time: 3600,
    sample_url: null,
  },
];
