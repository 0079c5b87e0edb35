import { boundedImageSize } from '../../../files/image-pixels.ts';
import { isPdf, pdfImageSizes } from './document-reader.ts';
import type { ProviderAnswer, SubmittedFile, VendorLimits } from './provider.ts';

export const MB = 1024 * 1024;

/** Per-vendor limits (spec, Limits): provider 1 4 MB; provider 2 17 MB and images under 1920 px. */
export const VENDOR_LIMITS: Record<string, VendorLimits> = {
  idd_provider_1: { maxBytes: 4 * MB },
  idd_provider_2: { maxBytes: 17 * MB, maxLongSidePx: 1920 },
};

/** The pixel sizes of the images in a file: the image itself, or every image a PDF embeds. */
export function imageSizesOf(bytes: Buffer): { width: number; height: number }[] {
  if (isPdf(bytes)) return pdfImageSizes(bytes);
  const size = boundedImageSize(bytes);
  const dims = [{ width: size.width, height: size.height }];
  for (const img of size.images ?? []) dims.push({ width: img.width, height: img.height });
  return dims;
}

/**
 * The refusal a vendor gives for one file over its limits, or null when the file is acceptable.
 * Over the byte limit or the pixel limit → `size`; an image whose size cannot be read → `unprocessable`.
 */
export function limitRefusal(
  limits: VendorLimits,
  side: 'front' | 'back',
  { file, bytes }: SubmittedFile,
): Extract<ProviderAnswer, { kind: 'refused' }> | null {
  if (file.size > limits.maxBytes) {
    return {
      kind: 'refused',
      reason: 'size',
      detail: `${side} file is ${file.size} bytes; the limit is ${limits.maxBytes} bytes`,
    };
  }
  if (limits.maxLongSidePx !== undefined) {
    let sizes: { width: number; height: number }[];
    try {
      sizes = imageSizesOf(bytes);
    } catch {
      return { kind: 'refused', reason: 'unprocessable', detail: `${side} image size cannot be read` };
    }
    const longest = Math.max(0, ...sizes.map((s) => Math.max(s.width, s.height)));
    if (longest >= limits.maxLongSidePx) {
      return {
        kind: 'refused',
        reason: 'size',
        detail: `${side} image is ${longest} px on its longer side; it must be under ${limits.maxLongSidePx} px`,
      };
    }
  }
  return null;
}
