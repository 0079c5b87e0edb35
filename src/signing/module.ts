import type { Module } from '../modules.ts';
import { signingIdentity } from './identity.ts';

/**
 * The signing identity is loaded (or generated and stored, the first time) before anything is
 * served: a signature inside a transaction then never waits for a connection of its own (the
 * embedded database has one), and a configured PKCS#12 that cannot be opened stops start-up with
 * its reason instead of failing the first signer.
 */
export const signingModule: Module = {
  name: 'signing',
  install: async (ctx) => {
    await signingIdentity(ctx);
  },
};
