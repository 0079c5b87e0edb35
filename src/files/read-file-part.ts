import type { Multipart, MultipartFile } from '@fastify/multipart';
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
  return badRequest(`malformed multipart/form-data body: ${(err as Error).message}`, 'body');
}

/** An upload's file part, and what else its form held (read once the file has been consumed). */
export interface FileUpload {
  part: MultipartFile;
  /**
   * The form's parts after the file, read to the end of the body: their names (a second file is
   * named `file`, refused by the parser's one-file limit). Call it after the file's stream ended.
   */
  otherParts(): Promise<string[]>;
  /**
   * The request body's declared size (Content-Length), null when it is sent chunked: a body no
   * larger than the upload limit cannot hold a file over it (uploadFile refuses such a file at once).
   */
  bodyBytes: number | null;
}

/**
 * The file part, named `file`, of a multipart request, first in its form (its stream still unread):
 * 415 for another content type, 400 for a malformed body, a missing `file` part or a form field
 * before it (400 naming it: the form holds the file and nothing else; the fields after it are
 * `otherParts`). The route's scope must have
 * @fastify/multipart registered with MULTIPART_LIMITS.
 */
export async function readFileUpload(
  req: FastifyRequest,
  // one file is taken; a second is read (and dropped) so that the refusal can name its field
  limits = { ...MULTIPART_LIMITS, files: 2 },
): Promise<FileUpload> {
  if (!req.isMultipart()) {
    // nothing sent at all: the file is missing (the spec's 400), not in a format we refuse
    const length = req.headers['content-length'];
    if (!req.headers['content-type'] && (length === undefined || length === '0')) throw fileRequired();
    throw new ApiError(
      415,
      'Content-Type must be multipart/form-data, with the file in the form field "file"',
    );
  }
  const parts = req.parts({ limits })[Symbol.asyncIterator]();
  let first: IteratorResult<Multipart>;
  try {
    first = await parts.next();
  } catch (err) {
    throw multipartError(err);
  }
  if (first.done) throw fileRequired();
  const part = first.value;
  if (part.type !== 'file') throw await refusedForm(part.fieldname, parts);
  if (part.fieldname !== 'file') {
    part.file.resume();
    throw fileRequired();
  }
  const declared = Number(req.headers['content-length']);
  return {
    part,
    bodyBytes: Number.isSafeInteger(declared) && declared >= 0 ? declared : null,
    async otherParts() {
      const names: string[] = [];
      try {
        for (;;) {
          const next = await parts.next();
          if (next.done) return names;
          names.push(next.value.fieldname);
          if (next.value.type === 'file') next.value.file.resume();
        }
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_FILES_LIMIT') return [...names, 'file'];
        throw multipartError(err);
      }
    },
  };
}

/**
 * A form that starts with a field: read to its end, then the file is required when none came (a
 * text field named `file` is not a file), else the field is refused by name.
 */
async function refusedForm(firstField: string, parts: AsyncIterator<Multipart>): Promise<ApiError> {
  let sawFile = false;
  try {
    for (;;) {
      const next = await parts.next();
      if (next.done) break;
      if (next.value.type === 'file') {
        next.value.file.resume();
        sawFile ||= next.value.fieldname === 'file';
      }
    }
  } catch (err) {
    return multipartError(err) as ApiError;
  }
  return sawFile && firstField !== 'file' ? unknownPart(firstField) : fileRequired();
}

/** A form part besides the one file (a field, or a second file): 400 naming it. */
export const unknownPart = (name: string) =>
  badRequest(
    name === 'file'
      ? 'file is given more than once: send one file per upload'
      : `${name} is not a supported form field: send only the file, in the form field "file"`,
    name,
  );
