import { Type } from 'typebox';
import { DateTime, NonBlank, Nullable, Uuid } from '../http/common-schemas.ts';

export const DOCUMENT_TYPE_TARGETS = ['company', 'individual'] as const;
export const DOCUMENT_TYPE_KEY_PATTERN = '^[a-z][a-z_0-9]*$';

/** A document type, built-in or the workspace's own (reference CustomDocumentType). */
export const DocumentType = Type.Object({
  id: Uuid,
  label: Type.String(),
  key: Type.String({ description: 'Unique identifier key, `^[a-z][a-z_0-9]*$`' }),
  target_entities: Type.Array(Type.Enum(DOCUMENT_TYPE_TARGETS)),
  is_internal: Type.Boolean(),
  created_at: DateTime,
  updated_at: DateTime,
  archived_at: Nullable(DateTime),
});

export const DocumentTypeCreate = Type.Object({
  key: Type.String({
    pattern: DOCUMENT_TYPE_KEY_PATTERN,
    minLength: 1,
    maxLength: 100,
    description:
      'Unique in the workspace (archived types included) and not a built-in key; lowercase letters, digits and `_`, starting with a letter',
  }),
  label: NonBlank({ maxLength: 200 }),
  target_entities: Type.Array(Type.Enum(DOCUMENT_TYPE_TARGETS), { minItems: 1, uniqueItems: true }),
  is_internal: Type.Optional(Type.Boolean({ default: false })),
});

export const DocumentTypeIdParam = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Id of the document type' }),
});
