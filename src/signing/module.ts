import type { Module } from '../modules.ts';
import { signingIdentity, signingMaterial } from './identity.ts';

/**
 * The signing identity's bytes are read (or generated and stored, the first time) before anything
 * is served: opening the identity later, inside a signature's transaction, then never waits for a
 * connection of its own (the embedded database has one; a full pool would wait forever). A
 * configured PKCS#12 is also opened here, so one that cannot be opened stops start-up with its
 * reason instead of failing the first signer. The generated one is opened on first use: node-forge
 * stays out of a service that does not sign (docs/performance.md).
 */
export const signingModule: Module = {
  name: 'signing',
  install: async (ctx) => {
    if (ctx.config.signingP12) await signingIdentity(ctx);
    else await signingMaterial(ctx);
  },
};
