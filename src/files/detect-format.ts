import { fileTypeFromBuffer } from 'file-type';

/** Bytes read from the start of an upload to decide its format. */
export const SNIFF_BYTES = 4100;

/** Accepted formats (decided from the content, never from the name or the declared type) → stored MIME. */
const ACCEPTED: Record<string, string> = {
  'application/pdf': 'application/pdf',
  'image/jpeg': 'image/jpeg',
  'image/png': 'image/png',
  'image/apng': 'image/png',
  'image/heic': 'image/heic',
  'image/heif': 'image/heif',
  'image/webp': 'image/webp',
  'image/tiff': 'image/tiff',
};

export const ACCEPTED_FORMATS = 'PDF, JPEG, PNG, HEIC/HEIF, WebP or TIFF';

/**
 * Short videos, accepted only where the caller asks for them (the client portal's video slot of an
 * id_verification check): documents and images stay the only formats of `/v1/files`, so no check
 * that analyses documents is ever handed a video.
 */
const VIDEO: Record<string, string> = {
  'video/webm': 'video/webm',
  'video/x-matroska': 'video/webm', // MediaRecorder's WebM is sometimes sniffed as its Matroska parent
  'video/mp4': 'video/mp4',
  'video/quicktime': 'video/quicktime',
};
export const VIDEO_FORMATS = 'WebM, MP4 or QuickTime';

const TIFF_LE = [0x49, 0x49, 0x2a, 0x00];
const TIFF_BE = [0x4d, 0x4d, 0x00, 0x2a];
const startsWith = (head: Uint8Array, magic: number[]) => magic.every((b, i) => head[i] === b);

/**
 * The MIME type of an accepted document or image from its first bytes, or null.
 * A plain TIFF whose first IFD lies beyond the sniffed bytes is still a TIFF (file-type needs the IFD
 * to tell TIFF from camera raw formats, which are not accepted).
 */
export async function detectFormat(
  head: Uint8Array,
  options: { video?: boolean } = {},
): Promise<string | null> {
  const detected = await fileTypeFromBuffer(head).catch(() => undefined);
  if (detected) return ACCEPTED[detected.mime] ?? (options.video ? (VIDEO[detected.mime] ?? null) : null);
  if (head.length >= SNIFF_BYTES && (startsWith(head, TIFF_LE) || startsWith(head, TIFF_BE)))
    return 'image/tiff';
  return null;
}
