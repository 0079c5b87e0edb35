/**
 * The words of the visible signature block (signature-block.ts), in the signer's language: the
 * caller chooses them (the e-signature check takes the portal page's language, see
 * src/checks/types/electronic_signature/signature-texts.ts). What the block shows of the signer and
 * of the document (name, e-mail, date in UTC, hash) is the same in every language.
 */
export interface BlockLabels {
  /** Above the signer's name: `Electronically signed by` */
  signedBy: string;
  /** Before the reason, its separator included: `Reason: ` (French sets a space before the colon) */
  reasonPrefix: string;
  /** Above the document's hash, its colon included */
  documentHash: string;
}

export const ENGLISH_BLOCK_LABELS: BlockLabels = {
  signedBy: 'Electronically signed by',
  reasonPrefix: 'Reason: ',
  documentHash: 'Document SHA-256 (before signing):',
};
