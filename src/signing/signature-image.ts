/** Largest drawn signature accepted, per side and in pixels (a phone canvas at 3× is about 1200 × 450). */
const MAX_SIDE = 4000;
const MAX_PIXELS = 4_000_000;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A drawn signature signPdf cannot use; the message says why (callers answer 400 with it). */
export class SignatureImageError extends Error {
  override name = 'SignatureImageError';
}

/**
 * Why a drawn signature cannot be drawn, or null when it can: it must be a PNG whose header
 * (IHDR) declares at most 4000 pixels a side and 4 million in all. The PNG is decoded whole to
 * be embedded, so a small file declaring a huge image (a decompression bomb) is refused here,
 * before any decoding. Callers may check first to answer 400 before any work.
 */
export function signaturePngProblem(png: Buffer): string | null {
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_MAGIC) || png.toString('latin1', 12, 16) !== 'IHDR') {
    return 'the drawn signature is not a PNG image';
  }
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (!width || !height) return 'the drawn signature PNG has no pixels';
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS) {
    return `the drawn signature is ${width} × ${height} pixels: at most ${MAX_SIDE} a side and ${MAX_PIXELS / 1e6} million in all`;
  }
  return null;
}
