import multipart from '@fastify/multipart';
import type { App, AppContext } from '../app-context.ts';
import { errors, IdParam } from '../http/common-schemas.ts';
import { notFound } from '../http/errors.ts';
import { openFileStream } from './attach-upload.ts';
import { MULTIPART_LIMITS, readFileUpload, unknownPart } from './read-file-part.ts';
import { discardUpload, findFile } from './repository.ts';
import { FileBytes, UploadBody, UploadResult } from './schemas.ts';
import { getStorage, StoredObjectNotFound } from './storage.ts';
import { uploadFile } from './upload-file.ts';

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
      async (req, reply) => {
        const upload = await readFileUpload(req);
        const { part, otherParts } = upload;
        const storage = getStorage(ctx);
        const workspaceId = req.principal.workspaceId;
        const stored = await uploadFile(ctx.db, storage, workspaceId, part.file, {
          declared: { filename: part.filename, mimetype: part.mimetype },
          maxImagePixels: ctx.config.maxImagePixels,
          bodyBytes: upload.bodyBytes,
        });
        // the form holds the file and nothing else: what follows it is known only once it is read
        const others = await otherParts().catch(async (err) => {
          await discardUpload(ctx.db, storage, workspaceId, stored.upload_ref);
          throw err;
        });
        if (others.length) {
          await discardUpload(ctx.db, storage, workspaceId, stored.upload_ref);
          throw unknownPart(others[0]);
        }
        // Idempotency-Key: a retry of the same file (bytes and name) gets the first upload_ref; this
        // copy is discarded, as it is when the key was used for another file (409)
        if (req.claimUploadKey) {
          const discard = async () => {
            await discardUpload(ctx.db, storage, workspaceId, stored.upload_ref);
          };
          const replayed = await req
            .claimUploadKey(`${stored.sha256}\n${part.filename ?? ''}`, discard)
            .catch(async (err) => {
              await discard();
              throw err;
            });
          if (replayed) return reply;
        }
        return { upload_ref: stored.upload_ref, expired_at: stored.expired_at };
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
