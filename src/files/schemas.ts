import { Type } from 'typebox';
import { DateTime } from '../http/common-schemas.ts';

export const UploadResult = Type.Object(
  {
    upload_ref: Type.String({
      description: 'Reference a check uses to attach the file (valid about one day)',
    }),
    expired_at: DateTime,
  },
  { $id: 'FileUpload' },
);

/** The multipart body of an upload, for the OpenAPI document (the route reads the stream itself). */
export const UploadBody = Type.Object({
  file: Type.Unsafe<unknown>({
    type: 'string',
    format: 'binary',
    description:
      'PDF, JPEG, PNG, HEIC/HEIF, WebP or TIFF; at most 20 MB; the format is read from the content',
  }),
});

export const FileBytes = Type.Unsafe<unknown>({ type: 'string', format: 'binary' });
