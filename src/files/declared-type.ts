import { supportedExtensions } from 'file-type';
import { ApiError } from '../http/errors.ts';
import { escapeUnsafe } from '../shared/escape-unsafe.ts';

/** Format names of the stored MIME types (HEIC and HEIF are one family, told apart by brand only). */
const FORMAT_OF_MIME: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/x-pdf': 'PDF',
  'image/jpeg': 'JPEG',
  'image/jpg': 'JPEG',
  'image/pjpeg': 'JPEG',
  'image/png': 'PNG',
  'image/apng': 'PNG',
  'image/x-png': 'PNG',
  'image/heic': 'HEIC/HEIF',
  'image/heif': 'HEIC/HEIF',
  'image/webp': 'WebP',
  'image/tiff': 'TIFF',
  'image/tif': 'TIFF',
  'video/webm': 'WebM',
  'video/x-matroska': 'WebM',
  'video/mp4': 'MP4',
  'video/quicktime': 'QuickTime',
};

const FORMAT_OF_EXTENSION: Record<string, string> = {
  pdf: 'PDF',
  jpg: 'JPEG',
  jpeg: 'JPEG',
  jpe: 'JPEG',
  jfif: 'JPEG',
  png: 'PNG',
  apng: 'PNG',
  heic: 'HEIC/HEIF',
  heif: 'HEIC/HEIF',
  hif: 'HEIC/HEIF',
  webp: 'WebP',
  tif: 'TIFF',
  tiff: 'TIFF',
  webm: 'WebM',
  mkv: 'WebM',
  mp4: 'MP4',
  m4v: 'MP4',
  mov: 'QuickTime',
  qt: 'QuickTime',
};

/**
 * Declared types that claim nothing: what clients send when they do not know the type, and
 * text/plain, which the multipart parser reports for a part without a Content-Type (RFC 7578's
 * default), so it cannot be told from no declaration at all.
 */
const GENERIC_TYPES = new Set([
  '',
  'text/plain',
  'application/octet-stream',
  'binary/octet-stream',
  'application/binary',
  'application/unknown',
]);

/** Extensions file-type knows that are used as "some data" names rather than for a format. */
const GENERIC_EXTENSIONS = new Set(['dat']);

/** Extensions that name some format (beyond file-type's list: text formats it cannot sniff). */
const TEXT_EXTENSIONS = new Set(['txt', 'text', 'csv', 'json', 'html', 'htm', 'xml', 'svg', 'md', 'rtf']);

/** The stored format name of a sniffed MIME type (`image/png` → `PNG`). */
export const formatName = (mime: string) => FORMAT_OF_MIME[mime] ?? mime;

export interface Declared {
  /** The file name of the multipart part, if any. */
  filename?: string;
  /** The Content-Type of the multipart part, if any. */
  mimetype?: string;
}

/**
 * The upload's declared type must agree with its content: the part's Content-Type (unless generic,
 * e.g. application/octet-stream) and its file name's extension (unless it names no known format,
 * e.g. `.bin` or none) must both say the sniffed format. A mismatch is a 415 naming both, so a
 * file saved under the wrong name or type is noticed instead of silently stored.
 */
export function declaredTypeMismatch(sniffedMime: string, declared: Declared): ApiError | null {
  const actual = formatName(sniffedMime);
  const type = (declared.mimetype ?? '').split(';')[0].trim().toLowerCase();
  if (!GENERIC_TYPES.has(type) && FORMAT_OF_MIME[type] !== actual) {
    return mismatch(
      sniffedMime,
      `file content is ${actual} but its declared Content-Type is ${escapeUnsafe(type, 100)}`,
    );
  }
  const name = declared.filename ?? '';
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  const namesAFormat =
    ext in FORMAT_OF_EXTENSION ||
    ((supportedExtensions.has(ext as never) || TEXT_EXTENSIONS.has(ext)) && !GENERIC_EXTENSIONS.has(ext));
  if (ext && namesAFormat && FORMAT_OF_EXTENSION[ext] !== actual) {
    return mismatch(
      sniffedMime,
      `file content is ${actual} but its name "${escapeUnsafe(name, 120)}" says .${escapeUnsafe(ext, 20)}`,
    );
  }
  return null;
}

/** Refusals for a declared type that contradicts the content → the content's MIME type. */
const mismatches = new WeakMap<ApiError, string>();

/**
 * The content's MIME type when an upload was refused for a name or Content-Type that contradicts
 * it, else null.
 */
export function mismatchedContentType(err: unknown): string | null {
  return (err instanceof ApiError && mismatches.get(err)) || null;
}

function mismatch(sniffedMime: string, message: string): ApiError {
  const err = new ApiError(415, message, [{ path: 'file', message }]);
  mismatches.set(err, sniffedMime);
  return err;
}
