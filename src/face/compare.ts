/**
 * Face comparison by the Euclidean distance of two 128-number descriptors of the recognition net
 * (dlib's ResNet model, ported by face-api). dlib reports 99.38 % on the LFW benchmark with a single
 * threshold of 0.6: pairs under it are the same person. A selfie against a printed, often older
 * document photo is harder than LFW, and a false match costs more than a review, so the verdict has
 * a grey zone: at most MATCH_DISTANCE is a match, at least MISMATCH_DISTANCE is not, and between
 * the two a person decides. Measured on face-api's own sample photos: two different women, both
 * smiling with their heads tilted, came out at 0.44, so a match needs 0.4 or less.
 */
export const MATCH_DISTANCE = 0.4;
export const MISMATCH_DISTANCE = 0.6;
/**
 * Closer than this, the selfie's face is a copy of the document's photo rather than a second
 * photograph of its holder: the same image decoded twice measures 0, a re-encoded copy a few
 * hundredths, while the same face photographed apart (a selfie against a smaller greyscale document
 * photo of the same picture, face-api's samples) measured 0.13 to 0.31.
 */
export const COPY_DISTANCE = 0.05;

export function euclideanDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`descriptor lengths differ (${a.length}, ${b.length})`);
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - b[i];
    sum += d * d;
  }
  return Math.sqrt(sum);
}

export type FaceVerdict = 'match' | 'undecided' | 'mismatch';

export function faceVerdict(distance: number): FaceVerdict {
  if (distance <= MATCH_DISTANCE) return 'match';
  if (distance >= MISMATCH_DISTANCE) return 'mismatch';
  return 'undecided';
}
