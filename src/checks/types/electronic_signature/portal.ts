import { badRequest } from '../../../http/errors.ts';
import type { PortalActionDefinition } from '../../../portal/portal-action.ts';
import type { ElectronicSignatureInternal } from './check-data.ts';
import { presentSignature } from './present-signature.ts';

/**
 * How an electronic_signature check appears in the client portal: only to its signer (no one signs
 * for someone else), with no file slots; the signing steps have their own routes
 * (portal-routes.ts) and the Action carries a `signature` block describing where the request is.
 */
export const electronicSignaturePortal: PortalActionDefinition = {
  audience: 'own_checks',
  slots: () => [],
  async describe(_db, check) {
    const internal = check.internal as unknown as ElectronicSignatureInternal;
    // the template's name is the workspace's own text; what to do is said by the portal page in its language
    return { label: internal.template_name, description: null };
  },
  async submit() {
    // the generic submit hands over pending files; a signature has none (signature/sign instead)
    throw badRequest('A signature is completed with its own step: signature/sign');
  },
  extra: async (db, check) => ({ signature: await presentSignature(db, check) }),
  // the page says how to get a new signing link, also in a tab that never saw this one
  expiredLink: {
    code: 'PORTAL_SIGNING_LINK_EXPIRED',
    message:
      'This signing link has expired: open the portal again through the invitation link, which issues a new one',
  },
};
