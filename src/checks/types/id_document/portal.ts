import type { PortalActionDefinition, PortalSlot } from '../../../portal/portal-action.ts';
import { identityRetryReason } from '../../../portal/retry-reasons.ts';
import type { CheckTypeDefinition } from '../../check-type.ts';
import { addFilesToCheck } from './add-files.ts';

/** Scans (PDF) or photos of the document; no forced camera: a contact may hold a scan already. */
const ACCEPT = 'application/pdf,image/jpeg,image/png';

/** The front is always needed; the back only for documents that have one, which the contact knows. */
const SLOTS: PortalSlot[] = [
  { key: 'front', required: true, min_files: 1, max_files: 1, accept: ACCEPT, capture: null },
  { key: 'back', required: false, min_files: 0, max_files: 1, accept: ACCEPT, capture: null },
];

/**
 * How an `id_document` check appears in the client portal: for any person of the case, with a
 * front and an optional back image submitted through add_files in the portal's transaction.
 * `def` is read when a submission runs (the check type definition refers to this object).
 */
export function idDocumentPortal(def: () => CheckTypeDefinition): PortalActionDefinition {
  return {
    audience: 'every_contact',
    slots: () => SLOTS,
    retryReason: identityRetryReason,
    async submit({ ctx, trx, check, files }) {
      const front = files.find((f) => f.slot === 'front');
      const back = files.find((f) => f.slot === 'back');
      // the portal refuses a submission without its required slots before calling this
      if (!front) throw new Error(`id_document ${check.id} submitted without a front image`);
      await addFilesToCheck(ctx, trx, def(), check, {
        front_upload_ref: front.upload_ref,
        back_upload_ref: back?.upload_ref ?? null,
      });
    },
  };
}
