import multipart from '@fastify/multipart';
import type { App, AppContext } from '../app-context.ts';
import { errors, IdParam } from '../http/common-schemas.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { openFileStream } from './attach-upload.ts';
import { findFile } from './repository.ts';
import { FileBytes, UploadBody, UploadResult } from './schemas.ts';
import { getStorage, StoredObjectNotFound } from './storage.ts';
import { MAX_UPLOAD_BYTES, uploadFile } from './upload-file.ts';

const MULTIPART_LIMITS = {
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
 * `POST /files/upload` and `GET /files/{id}`. The multipart parser is registered in a child scope
 * of /v1, so only these routes accept multipart bodies.
 */
export function registerFileRoutes(app: App, ctx: AppContext): void {
  const tags = ['Files'];
  app.register(async (scope) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS, throwFileSizeLimit: true });
    const api = scope as unknown as App;

    api.post(
      '/files/upload',
      {
        schema: {
          tags,
          summary: 'Upload a file',
          description:
            'multipart/form-data with one form field `file` (PDF, JPEG, PNG, HEIC/HEIF, WebP or TIFF, decided from the content; at most 20 MB). Returns an `upload_ref` valid for 24 h: a check attaches the file by referencing it.',
          consumes: ['multipart/form-data'],
          body: UploadBody,
          response: { 200: UploadResult, ...errors(400, 413, 415) },
        },
        // the body is a stream read by the handler: nothing to validate before it
        validatorCompiler: () => () => true,
      },
      async (req) => {
        if (!req.isMultipart()) {
          throw new ApiError(
            415,
            'Content-Type must be multipart/form-data, with the file in the form field "file"',
          );
        }
        let part: Awaited<ReturnType<typeof req.file>>;
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
        return uploadFile(ctx.db, getStorage(ctx), req.principal.workspaceId, part.file, {
          declared: { filename: part.filename, mimetype: part.mimetype },
          maxImagePixels: ctx.config.maxImagePixels,
        });
      },
    );

    api.get(
      '/files/:id',
      {
        schema: {
          tags,
          summary: 'Download a file',
          description:
            'The bytes of a file a check references, as application/octet-stream (no file name, no MIME type). An upload no check references yet has no readable id.',
          params: IdParam,
          response: {
            200: {
              description: 'File content',
              content: { 'application/octet-stream': { schema: FileBytes } },
            },
            ...errors(400, 404),
          },
        },
      },
      async (req, reply) => {
        const file = await findFile(ctx.db, req.principal.workspaceId, req.params.id);
        if (!file) throw notFound('File');
        let stream: Awaited<ReturnType<typeof openFileStream>>;
        try {
          stream = await openFileStream(getStorage(ctx), file);
        } catch (err) {
          if (!(err instanceof StoredObjectNotFound)) throw err;
          req.log.error({ fileId: file.id, err }, 'file row without stored bytes');
          throw notFound('File');
        }
        reply
          .type('application/octet-stream')
          .header('content-length', file.size)
          .header('cache-control', 'private, no-store')
          .header('x-content-type-options', 'nosniff');
        return reply.send(stream);
      },
    );
  });
}
