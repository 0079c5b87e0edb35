import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiError, badRequest } from '../http/errors.ts';
import { MAX_UPLOAD_BYTES } from './upload-file.ts';

/** Multipart limits of every upload route (`POST /v1/files/upload`, the client portal's uploads). */
export const MULTIPART_LIMITS = {
  fileSize: MAX_UPLOAD_BYTES,
  files: 1,
  fields: 20,
  fieldSize: 64 * 1024,
  parts: 25,
  headerPairs: 100,
};

const fileRequired = () =>
  badRequest('file is required: send the document as the multipart form field "file"', 'file');

/** A multipart parsing failure: its own 4xx status when it has one, else a malformed body (400). */
function multipartError(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const status = (err as { statusCode?: number }).statusCode;
  if (status === 413) return new ApiError(413, `multipart body exceeds a limit: ${(err as Error).message}`);
  return badRequest(`malformed multipart/form-data body: ${(err as Error).message}`);
}

/**
 * The one file part, named `file`, of a multipart request (its stream still unread): 415 for
 * another content type, 400 for a malformed body or a missing `file` part. The route's scope must
 * have @fastify/multipart registered with MULTIPART_LIMITS.
 */
export async function readFilePart(req: FastifyRequest): Promise<MultipartFile> {
  if (!req.isMultipart()) {
    // nothing sent at all: the file is missing (the spec's 400), not in a format we refuse
    const length = req.headers['content-length'];
    if (!req.headers['content-type'] && (length === undefined || length === '0')) throw fileRequired();
    throw new ApiError(
      415,
      'Content-Type must be multipart/form-data, with the file in the form field "file"',
    );
  }
  let part: MultipartFile | undefined;
  try {
    part = await req.file({ limits: MULTIPART_LIMITS });
  } catch (err) {
    throw multipartError(err);
  }
  if (!part) throw fileRequired();
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw fileRequired();
  }
  return part;
}
