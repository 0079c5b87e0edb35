import type { CheckRow } from '../../../db/schema.ts';
import type { PortalActionDefinition, PortalSlot } from '../../../portal/portal-action.ts';
import { documentRetryReason } from '../../../portal/retry-reasons.ts';
import type { CheckTypeDefinition } from '../../check-type.ts';
import { addDocumentFilesToCheck } from './add-files.ts';
import type { DocumentCheckData } from './check-data.ts';
import { MAX_DOCUMENT_FILES } from './schemas.ts';

/**
 * One slot of 1 to 10 files: a requested document may take several pages or photos. PDF and the
 * two image formats every phone can send (the analysis reads them; Safari sends HEIC photos as
 * JPEG when the page asks for these types).
 */
const FILES_SLOT: PortalSlot = {
  key: 'files',
  required: true,
  min_files: 1,
  max_files: MAX_DOCUMENT_FILES,
  accept: 'application/pdf,image/jpeg,image/png',
  capture: null,
};

/**
 * How a `document` check appears in the client portal: for any entity of the case (the contact
 * gathers the company's papers and other people's as well), labelled with its document type; the
 * contact's files go through add_files, as if posted by the API, in the portal's transaction.
 * `def` is read when a submission runs (the check type definition refers to this object).
 */
export function documentPortal(def: () => CheckTypeDefinition): PortalActionDefinition {
  return {
    audience: 'every_contact',
    slots: () => [FILES_SLOT],
    async describe(_db, check: CheckRow) {
      const data = check.data as unknown as DocumentCheckData;
      return { label: data.settings?.document_type?.label ?? null, description: null };
    },
    retryReason: documentRetryReason,
    async submit({ ctx, trx, check, files }) {
      await addDocumentFilesToCheck(ctx, trx, def(), check, {
        files: files.map((f) => ({ upload_ref: f.upload_ref })),
      });
    },
  };
}
