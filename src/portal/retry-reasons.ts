import { Type } from 'typebox';
import type { CheckRow } from '../db/schema.ts';

/**
 * Why a step came back to the contact, in words the client portal can say in the contact's language
 * (`Action.retry_reason`). Only what helps a person send something better is said, and only about
 * an automatic decision: a person's rejection keeps its reasons (the portal then asks, generically,
 * for new files), and a result that points at fraud (visual authenticity, a compromised document) is
 * never explained to whoever sent it.
 */
export const RETRY_REASONS = [
  'unreadable',
  'expired',
  'too_old',
  'wrong_document',
  'details_mismatch',
  'face_mismatch',
  'selfie_unusable',
  'document_and_selfie_unusable',
] as const;
export type RetryReason = (typeof RETRY_REASONS)[number];
export const RetryReasonSchema = Type.Enum(RETRY_REASONS);

type Verdicts = Record<string, unknown> | null | undefined;
const rejected = (results: Verdicts, key: string) => results?.[key] === 'rejected';

interface IdentityData {
  detailed_results?: { document?: Verdicts; face?: Verdicts };
}

/** Whether the check's last decision was the service's own (not a person's, by API or console). */
function decidedAutomatically(check: CheckRow): boolean {
  const data = check.data as { review?: { reviewer_type?: string | null } } | null;
  return data?.review?.reviewer_type === 'system';
}

/**
 * id_document and id_verification: the document's and the face's results, the most useful first.
 * An expired document is said whoever decided (the check's status says it, and it is a fact the
 * contact can act on alone).
 */
export function identityRetryReason(check: CheckRow): RetryReason | null {
  if (check.status === 'expired') return 'expired';
  if (check.status !== 'rejected' || !decidedAutomatically(check)) return null;
  const results = (check.data as IdentityData).detailed_results;
  const document = results?.document;
  if (rejected(document, 'data_consistency')) return 'expired';
  if (rejected(document, 'data_comparison')) return 'details_mismatch';
  if (rejected(document, 'data_validation') || rejected(document, 'image_integrity')) return 'unreadable';
  // a selfie with no face or several: the comparison then failed for want of a face. Only a
  // document that was read (its MRZ's check digits held) was fine, and then only the selfie is
  // said; a document not read at all leaves every document result null, and a retry asks for both
  // sides again: "the document was fine" sent the contact back with the same unreadable photo
  if (rejected(results?.face, 'image_integrity'))
    return document?.data_validation === 'approved' ? 'selfie_unusable' : 'document_and_selfie_unusable';
  if (rejected(results?.face, 'face_comparison')) return 'face_mismatch';
  return null;
}

interface DocumentData {
  detailed_results?: { document_analysis?: Verdicts };
}

/** The document check's analysis criteria (each `{ result, expected, received }`), the most useful first. */
export function documentRetryReason(check: CheckRow): RetryReason | null {
  if (check.status === 'expired') return 'expired';
  if (check.status !== 'rejected' || !decidedAutomatically(check)) return null;
  const analysis = (check.data as DocumentData).detailed_results?.document_analysis;
  const failed = (key: string) =>
    (analysis?.[key] as { result?: unknown } | null | undefined)?.result === 'rejected';
  if (failed('valid_document_type')) return 'wrong_document';
  if (failed('valid_expiration_date')) return 'expired';
  if (failed('valid_age_in_days')) return 'too_old';
  if (
    [
      'name_matching',
      'registration_number_matching',
      'address_matching',
      'iban_matching',
      'bic_matching',
    ].some(failed)
  )
    return 'details_mismatch';
  if (failed('valid_iban') || failed('valid_bic')) return 'unreadable';
  return null;
}
