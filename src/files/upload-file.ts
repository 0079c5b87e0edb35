import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { pipeline, Readable, Transform } from 'node:stream';
import type { Db } from '../db/connect.ts';
import { ApiError, badRequest } from '../http/errors.ts';
import { FILE_DAMAGED } from './damaged.ts';
import { type Declared, declaredTypeMismatch } from './declared-type.ts';
import { ACCEPTED_FORMATS, detectFormat, SNIFF_BYTES, VIDEO_FORMATS } from './detect-format.ts';
import { headerPixels, IMAGE_HEADER_BYTES, imagePixelsRefusal } from './image-pixels.ts';
import { pdfRefusal } from './pdf-structure.ts';
import { type FileStorage, StorageLimitExceeded, storageKeyFor } from './storage.ts';

/** Largest accepted upload: 20 MB. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
/** How long an upload_ref can be referenced by a check. */
export const UPLOAD_VALIDITY_MS = 24 * 60 * 60 * 1000;

export const tooLarge = () =>
  new ApiError(413, 'file exceeds the maximum size of 20 MB', [
    { path: 'file', message: 'file exceeds the maximum size of 20 MB' },
  ]);

/** A PNG's end: its IEND chunk's type and CRC (anywhere: some tools leave bytes after it). */
const PNG_END = Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

/** The file part of an upload: a stream that may be cut at the size limit (busboy's `truncated`/`limit`). */
const interrupted = (err: Error) =>
  badRequest(`the upload was interrupted or malformed: ${err.message}`, 'file');

export type UploadStream = Readable & { truncated?: boolean };

export interface UploadResult {
  upload_ref: string;
  expired_at: string;
  /** The stored bytes' SHA-256 (hex): not part of the answer (an Idempotency-Key's claim uses it). */
  sha256: string;
}

/** What the upload says about itself, and the limits it is held to. */
export interface UploadOptions {
  /** The part's file name and Content-Type: they must agree with the content. */
  declared?: Declared;
  /** Largest image, width × height (0: no limit). */
  maxImagePixels: number;
  /** Also accept a short video (WebM, MP4, QuickTime): the portal's video slot only. */
  acceptVideo?: boolean;
  /** The request body's declared size (FileUpload.bodyBytes); null or absent when unknown. */
  bodyBytes?: number | null;
}

export const newUploadRef = () => `upl_${randomBytes(24).toString('base64url')}`;

/**
 * Reads the first `n` bytes (fewer if the stream ends) and puts them back, so the stream can then be
 * consumed from its start. `ended` tells that the whole stream was read.
 */
function peekHead(stream: Readable, n: number): Promise<{ head: Buffer; ended: boolean }> {
  return new Promise((resolve, reject) => {
    // the multipart parser may have failed the part before the handler got to it
    if (stream.errored || stream.destroyed) {
      reject(stream.errored ?? new Error('the file part was closed early'));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const detach = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const done = (ended: boolean) => {
      detach();
      const head = Buffer.concat(chunks, size);
      if (!ended && size > 0) stream.unshift(head);
      resolve({ head, ended });
    };
    const onReadable = () => {
      let chunk: Buffer | null = stream.read();
      while (chunk !== null) {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= n) return done(false);
        chunk = stream.read();
      }
    };
    const onEnd = () => done(true);
    const onError = (err: Error) => {
      detach();
      reject(err);
    };
    const onClose = () => onError(stream.errored ?? new Error('the file part was closed early'));
    stream.on('readable', onReadable);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

/**
 * A refusal decided from the first bytes (format, declared type, pixels) gives way to the size
 * limit: a file over 20 MB is a 413 whatever its format (the spec lists 413 for any upload over
 * 20 MB; a client sending 21 MB of zeros expects 413, not 415). A body declared no larger than the
 * limit cannot hold such a file: refused at once. Otherwise the rest of the file is read and dropped
 * first (at most 20 MB: busboy stops counting at the limit and marks the stream `truncated`).
 */
async function refuseAfterDrain(
  file: UploadStream,
  ended: boolean,
  bodyBytes: number | null | undefined,
  refusal: ApiError,
): Promise<never> {
  if (!ended && bodyBytes != null && bodyBytes <= MAX_UPLOAD_BYTES) {
    file.resume(); // discard the rest
    throw refusal;
  }
  if (!ended) {
    await new Promise<void>((resolve) => {
      if (file.readableEnded || file.destroyed) return resolve();
      file.once('end', resolve);
      // at the limit busboy marks the stream truncated but ends it only with its part, which may
      // be megabytes of body later (or never sent): the limit is enough to answer
      file.once('limit', resolve);
      file.once('close', resolve);
      file.once('error', () => resolve()); // a broken body: the refusal stands
      file.resume();
    });
  }
  throw file.truncated ? tooLarge() : refusal;
}

/**
 * Stores one uploaded file: decides the format from its first bytes and refuses it when its declared
 * type disagrees or, for an image, when its header declares too many pixels; streams it to storage
 * while hashing it, stops at 20 MB leaving nothing behind (a refused file over 20 MB is a 413 whatever
 * its format); refuses a PDF that does not parse; and
 * records an unattached upload valid for 24 h. Only a PDF is held whole in memory (to parse it).
 */
export async function uploadFile(
  db: Db,
  storage: FileStorage,
  workspaceId: string,
  file: UploadStream,
  options: UploadOptions,
  now: Date = new Date(),
): Promise<UploadResult> {
  const peek = (n: number) =>
    peekHead(file, n).catch((err: Error) => {
      throw interrupted(err);
    });
  let { head, ended } = await peek(SNIFF_BYTES);
  if (head.length === 0) {
    if (!ended) file.resume();
    throw badRequest('file is empty', 'file');
  }
  const mime = await detectFormat(head, { video: options.acceptVideo });
  if (!mime) {
    const formats = options.acceptVideo
      ? `${ACCEPTED_FORMATS}, or a ${VIDEO_FORMATS} video`
      : ACCEPTED_FORMATS;
    return refuseAfterDrain(
      file,
      ended,
      options.bodyBytes,
      new ApiError(415, `file format is not accepted: upload a ${formats} file`, [
        { path: 'file', message: `file must be a ${formats} file` },
      ]),
    );
  }
  const refusal = declaredTypeMismatch(mime, options.declared ?? {});
  if (refusal) return refuseAfterDrain(file, ended, options.bodyBytes, refusal);
  if (mime.startsWith('image/')) {
    // the dimensions usually sit in the sniffed bytes; a JPEG's may follow large metadata
    if (!ended && !headerPixels(head)) ({ head, ended } = await peek(IMAGE_HEADER_BYTES));
    const tooMany = imagePixelsRefusal(head, options.maxImagePixels);
    if (tooMany) return refuseAfterDrain(file, ended, options.bodyBytes, tooMany);
  }
  // a PDF is parsed whole once stored: keep its bytes as they stream by (at most 20 MB)
  const pdfChunks: Buffer[] | null = mime === 'application/pdf' ? [] : null;

  const id = randomUUID();
  const key = storageKeyFor(workspaceId, id);
  const hash = createHash('sha256');
  // a PNG must hold its IEND chunk (a truncated one stops before it): looked for in each chunk with
  // the previous one's last bytes, in case it straddles the two
  const png = mime === 'image/png' ? { ended: false, carry: Buffer.alloc(0) } : null;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      pdfChunks?.push(chunk);
      if (png && !png.ended) {
        // the chunk itself, then only the few bytes around its start: no copy of the chunk
        const edge = Buffer.concat([png.carry, chunk.subarray(0, PNG_END.length - 1)]);
        png.ended = chunk.includes(PNG_END) || edge.includes(PNG_END);
        png.carry = Buffer.from(
          Buffer.concat([png.carry, chunk.subarray(-(PNG_END.length - 1))]).subarray(-(PNG_END.length - 1)),
        );
      }
      cb(null, chunk);
    },
  });
  const onLimit = () => meter.destroy(new StorageLimitExceeded(MAX_UPLOAD_BYTES));
  file.once('limit', onLimit);
  let sourceError: Error | undefined; // the request body broke off or is malformed
  const onSourceError = (err: Error) => {
    sourceError ??= err;
  };
  file.on('error', onSourceError);
  // a file that fits in the sniffed bytes was read whole: store those bytes
  const body = pipeline(ended ? Readable.from([head]) : file, meter, () => {});

  let size: number;
  try {
    ({ size } = await storage.put(key, body, MAX_UPLOAD_BYTES));
    if (file.truncated) throw new StorageLimitExceeded(MAX_UPLOAD_BYTES);
  } catch (err) {
    await storage.delete(key).catch(() => {});
    if (err instanceof StorageLimitExceeded || file.truncated) throw tooLarge();
    if (sourceError) throw interrupted(sourceError);
    if ((err as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') throw interrupted(err as Error);
    throw err;
  } finally {
    file.off('limit', onLimit);
    file.off('error', onSourceError);
  }

  if (png && !png.ended) {
    await storage.delete(key).catch(() => {});
    const message = 'file is a truncated or damaged PNG: its end (the IEND chunk) is missing';
    throw new ApiError(400, message, [{ path: 'file', message }], FILE_DAMAGED);
  }

  if (pdfChunks) {
    const unreadable = await pdfRefusal(Buffer.concat(pdfChunks, size), options.maxImagePixels);
    pdfChunks.length = 0;
    if (unreadable) {
      await storage.delete(key).catch(() => {});
      throw unreadable;
    }
  }

  const expiresAt = new Date(now.getTime() + UPLOAD_VALIDITY_MS);
  const uploadRef = newUploadRef();
  const sha256 = hash.digest('hex');
  try {
    await db
      .insertInto('files')
      .values({
        id,
        workspace_id: workspaceId,
        upload_ref: uploadRef,
        storage_key: key,
        size,
        mime,
        sha256,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute();
  } catch (err) {
    await storage.delete(key).catch(() => {});
    throw err;
  }
  return { upload_ref: uploadRef, expired_at: expiresAt.toISOString(), sha256 };
}
