import type { DocumentCheckDataDetailedResults, DocumentCheckDataInformation } from './schemas.ts';

export * from './schemas.ts';

/**
 * Offline analysis of the files of a document check: text from a PDF's text layer or OCR of an
 * image, then criteria comparing what was read with the check's target. Library only: the document
 * check's job calls `analyzeDocument` and applies its automatic_approval / automatic_rejection
 * settings to `verdict`.
 */

export interface AnalysisFile {
  bytes: Buffer;
  mime: string;
  filename: string | null;
}

export interface AnalysisTarget {
  kind: 'company' | 'individual';
  /** Company name, or the individual's full name when first/last names are not given. */
  name: string | null;
  registrationNumber: string | null;
  /** ISO 3166-1 alpha-2. */
  country: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** Known postal address of the target; `address_matching` is evaluated only when given. */
  address?: string | null;
  /** Known banking details of the target; `iban_matching` / `bic_matching` only when given. */
  iban?: string | null;
  bic?: string | null;
}

export interface AnalysisInput {
  files: AnalysisFile[];
  documentTypeKey: string;
  target: AnalysisTarget;
  /** Reference time for ages and expirations (proof of address older than 3 months fails). */
  now: Date;
  /**
   * Maximum age of the issuing date in days for registration certificates and proofs of address;
   * default: 3 calendar months before `now`.
   */
  maxAgeInDays?: number | null;
}

export interface AnalysisOutcome {
  /**
   * What the criteria say before the check's settings are applied: every criterion approved →
   * approved; any rejected → rejected; none rejected but some null (unknown) → need_review;
   * unreadable → need_review (with a comment).
   */
  verdict: 'approved' | 'rejected' | 'need_review';
  unreadable: boolean;
  /** Why: unreadable files, failed criteria. Null when approved. */
  comment: string | null;
  /** The whole `data.information` of the check: `{ expiration_date, document_analysis }`. */
  information: DocumentCheckDataInformation;
  /** The whole `data.detailed_results` of the check: `{ document_analysis }`. */
  detailedResults: DocumentCheckDataDetailedResults;
}

export { analyzeDocument } from './analyze.ts';
export { DOCUMENT_KINDS, type DocumentKind, kindForKey, modelForKind } from './kinds.ts';
export { OCR_LANGUAGES, OCR_TIMEOUT_MS, shutdownOcr } from './ocr.ts';
export { type FileText, readFileText } from './text.ts';
