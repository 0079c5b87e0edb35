import { randomUUID } from 'node:crypto';
import type { StoredFile } from '../../../files/attach-upload.ts';
import { emptyReview } from '../../review-data.ts';
import { emptyDetailedResults } from '../id_document/check-data.ts';
import type { IDV_MODES, IDV_VENDORS } from './schemas.ts';

export type IdVerificationMode = (typeof IDV_MODES)[number];

export type IdVerificationSettings = {
  vendor: (typeof IDV_VENDORS)[number];
  mode: IdVerificationMode;
  automatic_approval: boolean;
  automatic_rejection: boolean;
  redirect_url: string | null;
};

export const ID_VERIFICATION_DEFAULTS: IdVerificationSettings = {
  vendor: 'idv_provider_1',
  mode: 'auto',
  automatic_approval: true,
  automatic_rejection: true,
  redirect_url: null,
};

/** The images (and video) of a submission. */
export interface CaptureFiles {
  front: StoredFile;
  back: StoredFile | null;
  face: StoredFile;
  video: StoredFile | null;
}

/** The measurements of a run, kept for the report and for a reviewer (never shown in `data`). */
export interface FaceAnalysis {
  sandbox_outcome: string | null;
  selfie_faces: number | null;
  document_faces: number | null;
  distance: number | null;
  model: string | null;
}

/** The check's `internal`: the files of the current attempt and what the last run measured. */
export interface IdVerificationInternal {
  files: CaptureFiles | null;
  analysis?: FaceAnalysis | null;
  forced_review?: boolean;
}

export type Verdict = 'approved' | 'rejected' | 'error' | null;

/** The document's aspects before any run: the same object id_document starts with. */
export const emptyDocumentResults = emptyDetailedResults;

export const emptyFaceResults = () => ({
  face_comparison: null as Verdict,
  image_integrity: null as Verdict,
  visual_authenticity: null as Verdict,
});

export const emptyInformation = (files: CaptureFiles | null) => ({
  document_type: null as string | null,
  document_number: null as string | null,
  first_name: null as string | null,
  last_name: null as string | null,
  gender: null as string | null,
  nationality: null as string | null,
  birth_date: null as string | null,
  birth_place: null as string | null,
  birth_country: null as string | null,
  expiration_date: null as string | null,
  issuing_date: null as string | null,
  issuing_country: null as string | null,
  mrz: null as string | null,
  ip_address: null as string | null,
  front_file_id: files?.front.id ?? null,
  back_file_id: files?.back?.id ?? null,
  signature_file_id: null as string | null,
  face_file_id: files?.face.id ?? null,
  video_file_id: files?.video?.id ?? null,
});

export { emptyReview };

/** The data of a new check, waiting for the contact's capture (the URL is set right after). */
export function initialData(settings: IdVerificationSettings): Record<string, unknown> {
  return {
    result: null,
    settings,
    vendor: {
      name: settings.vendor,
      verification_ref: `idv_${randomUUID()}`,
      verification_url: null,
      verification_url_expires_at: null,
      verification_status: 'awaiting_capture',
      started_at: null,
      ended_at: null,
      comment: null,
      report_file_id: null,
      sdk_token: null,
    },
    review: emptyReview(),
    detailed_results: { document: emptyDocumentResults(), face: emptyFaceResults() },
    information: emptyInformation(null),
  };
}
