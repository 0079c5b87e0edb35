import type { EkycProvider } from './provider.ts';

/**
 * Sandbox eKYC provider (docs/sandbox.md): the individual's last name decides.
 * `Inconclusive` → inconclusive, `Inconsistent` → inconsistent, anything else → match.
 */
export const sandboxEkycProvider: EkycProvider = {
  name: 'ekyc_provider_1',
  async verify(identity) {
    const last = identity.last_name.trim().toLowerCase();
    if (last === 'inconclusive') return { decision: 'inconclusive', score: 50 };
    if (last === 'inconsistent') return { decision: 'inconsistent', score: 10 };
    return { decision: 'match', score: 95 };
  },
};
