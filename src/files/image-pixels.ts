import { imageSize } from 'image-size';
import { ApiError } from '../http/errors.ts';
import { FILE_DAMAGED } from './damaged.ts';

/**
 * image-size reads through a DataView over the input's whole ArrayBuffer, not bounded by the
 * view's length: given a Buffer that is a slice of Node's shared pool (small reads, small request
 * bodies), a truncated header was completed with whatever bytes followed in the pool (a 20-byte PNG
 * read as 800 × 577,922,412). A copy with an ArrayBuffer of its own makes a read past the end throw.
 */
export function boundedImageSize(bytes: Uint8Array): ReturnType<typeof imageSize> {
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return imageSize(own ? bytes : new Uint8Array(bytes));
}

/**
 * How far into an image its dimensions are looked for. PNG, WebP and TIFF written the usual way
 * state them in the first bytes; a JPEG's frame header follows its metadata segments (EXIF, ICC
 * profiles: each at most 64 KB); 1 MB covers them.
 */
export const IMAGE_HEADER_BYTES = 1024 * 1024;

/**
 * Width × height of the largest image a file's header declares (HEIF may hold several), or null
 * when the header does not say (truncated, beyond the bytes given, or a zero side). Nothing is decoded.
 */
export function headerPixels(head: Buffer): { width: number; height: number; pixels: number } | null {
  let size: ReturnType<typeof imageSize>;
  try {
    size = boundedImageSize(head);
  } catch {
    return null;
  }
  let best = { width: size.width, height: size.height, pixels: size.width * size.height };
  for (const img of size.images ?? []) {
    if (img.width * img.height > best.pixels)
      best = { width: img.width, height: img.height, pixels: img.width * img.height };
  }
  // a header cut after the width reads as a height of 0 (a PNG of 20 bytes): nothing to read there
  if (!(best.width >= 1 && best.height >= 1)) return null;
  return Number.isFinite(best.pixels) ? best : null;
}

const megapixels = (n: number) => `${Math.round(n / 10_000) / 100} megapixels`;

/**
 * Refuses an image whose header declares more than `maxPixels` pixels (a decompression bomb: a few
 * bytes that decode to gigabytes), or whose header cannot be read: checked before anything decodes
 * or analyses it. `maxPixels` 0 turns the limit off.
 */
export function imagePixelsRefusal(head: Buffer, maxPixels: number): ApiError | null {
  const size = headerPixels(head);
  if (!size) {
    const message =
      'image dimensions cannot be read from its header (the first 1 MB): the file is damaged or truncated, or a TIFF whose directory is stored at its end';
    return new ApiError(400, message, [{ path: 'file', message }], FILE_DAMAGED);
  }
  return tooManyPixels('image is', size.width, size.height, maxPixels);
}

/**
 * The 413 of an image over the pixel limit: the same body as any 413 (PAYLOAD_TOO_LARGE), told
 * apart by its class, so that the portal can say "too many pixels" rather than "over 20 MB" (a
 * 107 KB scan of 11000 × 10000 pixels was said to be too large for a 20 MB limit).
 */
export class TooManyPixels extends ApiError {}

/** A 413 when `width` × `height` is over `maxPixels` (0: no limit), the message starting with `subject`. */
export function tooManyPixels(
  subject: string,
  width: number,
  height: number,
  maxPixels: number,
): ApiError | null {
  const pixels = width * height;
  if (maxPixels <= 0 || pixels <= maxPixels) return null;
  const message = `${subject} ${width} × ${height} pixels (${megapixels(pixels)}); the limit is ${megapixels(maxPixels)}`;
  return new TooManyPixels(413, message, [{ path: 'file', message }]);
}
