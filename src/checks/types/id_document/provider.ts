import type { StoredFile } from '../../../files/attach-upload.ts';

/** `data.information` of an id_document check (the reference's IdDocumentCheckDataInformation). */
export interface DocumentInformation {
  document_type:
    | 'passport'
    | 'identity_card'
    | 'driving_license'
    | 'residence_permit'
    | 'visa'
    | 'other'
    | null;
  document_number: string | null;
  first_name: string | null;
  last_name: string | null;
  maiden_name: string | null;
  gender: string | null;
  nationality: string | null;
  birth_date: string | null;
  birth_country: string | null;
  issuing_date: string | null;
  issuing_country: string | null;
  expiration_date: string | null;
  front_file_id: string | null;
  back_file_id: string | null;
}

export type Verdict = 'approved' | 'rejected' | 'error' | null;

/** `data.detailed_results.document` (deprecated upstream, still the only structured breakdown). */
export interface DocumentDetailedResults {
  data_validation: Verdict;
  data_consistency: Verdict;
  data_comparison: Verdict;
  image_integrity: Verdict;
  visual_authenticity: Verdict;
  compromised_document: Verdict;
}

/** One submitted image: the stored file and its bytes. */
export interface SubmittedFile {
  file: StoredFile;
  bytes: Buffer;
}

/** The person the document should belong to (for data comparison). */
export interface DeclaredPerson {
  first_name: string;
  last_name: string;
  maiden_name: string | null;
  birth_date: string | null;
  birth_country: string | null;
  gender: string | null;
  nationality: string | null;
}

export interface Submission {
  front: SubmittedFile;
  back: SubmittedFile | null;
  person: DeclaredPerson;
}

/** What a provider answers for one submission. */
export type ProviderAnswer =
  /** The provider refused the submission (`size`: a file over its limits; `unprocessable`: anything else). */
  | { kind: 'refused'; reason: 'size' | 'unprocessable'; detail: string }
  /** The provider failed (the check's data.result becomes `error`). */
  | { kind: 'error'; detail: string }
  /** The provider has not answered yet (the check stays processing; force_review exists for this). */
  | { kind: 'pending' }
  | {
      kind: 'result';
      /** null: the provider could not decide. */
      decision: 'approved' | 'rejected' | null;
      information: Omit<DocumentInformation, 'front_file_id' | 'back_file_id'>;
      detailed: DocumentDetailedResults;
      /** The provider's reason (on rejection), else null. */
      comment: string | null;
    };

/** Per-file limits a vendor enforces on submission (refusals, not HTTP errors). */
export interface VendorLimits {
  maxBytes: number;
  /** The longer side of an image (including images embedded in a PDF) must be under this. */
  maxLongSidePx?: number;
}

/** An identity-document verification provider. */
export interface IdDocumentProvider {
  /** The vendor identifier (`settings.vendor`, `vendor.name`). */
  name: string;
  limits: VendorLimits;
  submit(submission: Submission): Promise<ProviderAnswer>;
}
