import {
  COPY_DISTANCE,
  euclideanDistance,
  faceVerdict,
  MATCH_DISTANCE,
  MISMATCH_DISTANCE,
} from '../../../face/compare.ts';
import { decodeImage } from '../../../face/decode-image.ts';
import { detectFacesUprightOffThread } from '../../../face/face-thread.ts';
import { isPng, pngTextChunks } from '../id_document/document-reader.ts';
import { findMrz } from '../id_document/find-mrz.ts';
import { mrzValidationProblems } from '../id_document/mrz-reader.ts';
import type { DeclaredPerson } from '../id_document/provider.ts';
import { compareWithPerson, withDeclaredCentury } from '../id_document/sandbox-provider.ts';
import { emptyDocumentResults, emptyFaceResults, type FaceAnalysis, type Verdict } from './check-data.ts';

/** Values of the selfie's PNG `tEXt` keyword `sandbox_outcome` (docs/sandbox.md). */
export const IDV_SANDBOX_OUTCOMES = ['approved', 'rejected', 'undecided', 'error', 'pending'] as const;
export type IdvSandboxOutcome = (typeof IDV_SANDBOX_OUTCOMES)[number];

export const MODEL_NAME =
  'face-api 1.7 (SSD MobileNet v1, 68 landmarks, dlib ResNet descriptor) on TensorFlow.js WASM';

export interface CaptureBytes {
  front: Buffer;
  back: Buffer | null;
  face: Buffer;
  person: DeclaredPerson;
}

/** What one verification run found. `decision` null: it could not decide. */
export interface VerifierRun {
  decision: 'approved' | 'rejected' | 'error' | null;
  information: {
    document_type: string | null;
    document_number: string | null;
    first_name: string | null;
    last_name: string | null;
    gender: string | null;
    nationality: string | null;
    birth_date: string | null;
    birth_country: string | null;
    expiration_date: string | null;
    issuing_date: string | null;
    issuing_country: string | null;
    mrz: string | null;
  };
  document: ReturnType<typeof emptyDocumentResults>;
  face: ReturnType<typeof emptyFaceResults>;
  /** Why it was rejected or left undecided, in words; null when approved. */
  comment: string | null;
  analysis: FaceAnalysis;
}

/** The selfie's `sandbox_outcome` when it is a PNG carrying one of the known values. */
export function sandboxOutcomeOf(selfie: Buffer): IdvSandboxOutcome | null {
  if (!isPng(selfie)) return null;
  const value = pngTextChunks(selfie).sandbox_outcome?.trim().toLowerCase();
  return value && (IDV_SANDBOX_OUTCOMES as readonly string[]).includes(value)
    ? (value as IdvSandboxOutcome)
    : null;
}

/**
 * The document half: the MRZ (id_document's reader: carried as text while the sandbox file controls
 * are on, else by OCR), its check digits, expiry and the person's data.
 */
async function verifyDocument(capture: CaptureBytes, now: Date, fileControls: boolean) {
  const today = now.toISOString().slice(0, 10);
  const sides = [capture.front, capture.back].filter((b): b is Buffer => b !== null);
  const { found, misread } = await findMrz(sides, now, { text: fileControls, ocr: true });
  const document = emptyDocumentResults();
  const reasons: string[] = [];
  const mrz = found?.mrz ?? null;
  if (!found || !mrz) {
    reasons.push(
      misread
        ? `the machine-readable zone was read as ${misread.join(' / ')} but its check digits do not match that reading (a misreading or a wrong document)`
        : 'no machine-readable zone could be read from the document',
    );
    return { mrz: null, lines: null, document, reasons };
  }
  const lines = found.lines;
  mrz.information = withDeclaredCentury(mrz.information, capture.person);
  const info = mrz.information;
  const problems = mrzValidationProblems(mrz);
  document.data_validation = problems.length ? 'rejected' : 'approved';
  reasons.push(...problems);
  // an MRZ format without expiry date (the Swiss driving licence) leaves it not evaluated
  document.data_consistency = !mrz.carriesExpiry
    ? null
    : info.expiration_date && info.expiration_date >= today
      ? 'approved'
      : 'rejected';
  if (document.data_consistency === 'rejected')
    reasons.push(
      info.expiration_date
        ? `the document expired on ${info.expiration_date}`
        : 'the document has no readable expiration date',
    );
  const comparison = compareWithPerson(info, capture.person, {
    truncated: mrz.namesTruncated,
    ocr: found.ocr,
  });
  document.data_comparison = comparison.verdict;
  if (comparison.mismatches.length)
    reasons.push(`the document does not match the individual (${comparison.mismatches.join(', ')})`);
  if (comparison.uncertain.length)
    reasons.push(
      `the ${comparison.uncertain.join(' and ')} read by OCR (${[info.last_name, info.first_name].map((n) => n ?? '-').join(', ')}) differ from the individual's: no check digit covers a name, so a person compares them`,
    );
  return { mrz, lines, document, reasons };
}

/** The face half, on the device: one face on the selfie, a face on the document, their distance. */
async function verifyFaces(capture: CaptureBytes) {
  const face = emptyFaceResults();
  const reasons: string[] = [];
  const selfie = decodeImage(capture.face);
  const card = decodeImage(capture.front);
  if (!selfie || !card) {
    return {
      face,
      reasons: [`the ${selfie ? 'document' : 'selfie'} image cannot be decoded (JPEG or PNG expected)`],
      analysis: { selfie_faces: null, document_faces: null, distance: null },
      error: true,
    };
  }
  const selfieFaces = (await detectFacesUprightOffThread(selfie, 5)).faces;
  const cardFaces = (await detectFacesUprightOffThread(card, 5)).faces;
  face.image_integrity = selfieFaces.length === 1 ? 'approved' : 'rejected';
  if (selfieFaces.length !== 1)
    reasons.push(
      selfieFaces.length === 0 ? 'no face was found on the selfie' : 'the selfie shows several faces',
    );
  // the same file sent as the document and as the selfie is no selfie: its face "matched" the
  // document's at distance 0 and the check was approved (security walk)
  if (capture.face.equals(capture.front) || (capture.back && capture.face.equals(capture.back))) {
    face.image_integrity = 'rejected';
    reasons.push('the selfie is the document image itself, not a photograph of the person');
  }
  let distance: number | null = null;
  if (cardFaces.length === 0) {
    face.face_comparison = 'rejected';
    reasons.push('no face photo was found on the document front');
  } else if (selfieFaces.length > 0) {
    // a card may carry a second, smaller "ghost" photo of the holder: the closest face counts; and
    // of a selfie with several faces (rejected by image_integrity anyway) the closest too, so that
    // the result says whether the holder is among them rather than a mismatch with a stranger
    distance = Math.min(
      ...selfieFaces.flatMap((s) => cardFaces.map((f) => euclideanDistance(s.descriptor, f.descriptor))),
    );
    const verdict = faceVerdict(distance);
    face.face_comparison = verdict === 'match' ? 'approved' : verdict === 'mismatch' ? 'rejected' : null;
    // a copy of the document's photo (re-encoded, cropped from the same image): a person looks
    if (distance < COPY_DISTANCE && face.image_integrity === 'approved') {
      face.face_comparison = null;
      reasons.push(
        `the selfie's face is nearly identical to the document photo (distance ${distance.toFixed(3)} < ${COPY_DISTANCE}): it may be a copy of it rather than a new photograph`,
      );
    }
    if (verdict === 'mismatch')
      reasons.push(
        `the selfie does not match the document photo (distance ${distance.toFixed(3)} ≥ ${MISMATCH_DISTANCE})`,
      );
    if (verdict === 'undecided')
      reasons.push(
        `the face comparison is inconclusive (distance ${distance.toFixed(3)}, between ${MATCH_DISTANCE} and ${MISMATCH_DISTANCE})`,
      );
  }
  return {
    face,
    reasons,
    analysis: { selfie_faces: selfieFaces.length, document_faces: cardFaces.length, distance },
    error: false,
  };
}

/**
 * The results that decide. The expiry is left out for a document whose MRZ carries none (the Swiss
 * driving licence): it was not evaluated for want of a date, not for want of a reading, so it must
 * not hold the run undecided (id_document approves such a licence too).
 */
const DECIDING = (run: Pick<VerifierRun, 'document' | 'face'>, carriesExpiry: boolean): Verdict[] => [
  run.document.data_validation,
  ...(carriesExpiry ? [run.document.data_consistency] : []),
  run.document.data_comparison,
  run.face.image_integrity,
  run.face.face_comparison,
];

/**
 * Verifies a capture. While the sandbox file controls are on (`fileControls`, the default), a selfie
 * PNG carrying `sandbox_outcome` decides the face half and the result without the model (the
 * document half is still read); `pending` answers null (no result yet). Otherwise the on-device
 * model runs: approved when every deciding result is approved, rejected when one is rejected,
 * undecided otherwise.
 */
export async function verifyCapture(
  capture: CaptureBytes,
  { fileControls, now = new Date() }: { fileControls: boolean; now?: Date },
): Promise<VerifierRun | null> {
  const forced = fileControls ? sandboxOutcomeOf(capture.face) : null;
  if (forced === 'pending') return null;
  const doc = await verifyDocument(capture, now, fileControls);
  const info = doc.mrz?.information;
  const information: VerifierRun['information'] = {
    document_type: info?.document_type ?? null,
    document_number: info?.document_number ?? null,
    first_name: info?.first_name ?? null,
    last_name: info?.last_name ?? null,
    gender: info?.gender ?? null,
    nationality: info?.nationality ?? null,
    birth_date: info?.birth_date ?? null,
    birth_country: info?.birth_country ?? null,
    expiration_date: info?.expiration_date ?? null,
    issuing_date: info?.issuing_date ?? null,
    issuing_country: info?.issuing_country ?? null,
    mrz: doc.lines ? doc.lines.join('\n') : null,
  };
  if (forced) {
    const face = emptyFaceResults();
    const decision =
      forced === 'approved'
        ? 'approved'
        : forced === 'rejected'
          ? 'rejected'
          : forced === 'error'
            ? 'error'
            : null;
    if (forced !== 'error') {
      face.image_integrity = 'approved';
      face.face_comparison = forced === 'approved' ? 'approved' : forced === 'rejected' ? 'rejected' : null;
    }
    return {
      decision,
      information,
      document: doc.document,
      face,
      // an error reads like a real run's failure (index.ts), so the review names what went wrong
      comment:
        forced === 'approved'
          ? null
          : forced === 'error'
            ? 'The verification could not run: the sandbox verifier failed, as its selfie asked (sandbox_outcome error)'
            : `sandbox_outcome ${forced}`,
      analysis: {
        sandbox_outcome: forced,
        selfie_faces: null,
        document_faces: null,
        distance: null,
        model: null,
      },
    };
  }
  const faces = await verifyFaces(capture);
  const analysis: FaceAnalysis = { sandbox_outcome: null, ...faces.analysis, model: MODEL_NAME };
  const reasons = [...doc.reasons, ...faces.reasons];
  const run = { document: doc.document, face: faces.face };
  const verdicts = DECIDING(run, doc.mrz?.carriesExpiry ?? true);
  const decision = faces.error
    ? 'error'
    : verdicts.includes('rejected')
      ? 'rejected'
      : verdicts.every((v) => v === 'approved')
        ? 'approved'
        : null;
  const comment =
    decision === 'approved' ? null : reasons.length ? `${capitalise(reasons.join('; '))}.` : null;
  return { decision, information, ...run, comment, analysis };
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
