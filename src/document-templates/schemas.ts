import { Type } from 'typebox';
import { DateTime, NonBlank, Nullable, Uuid } from '../http/common-schemas.ts';

export const TEMPLATE_KINDS = ['electronic_signature', 'report'] as const;
const KindSchema = (description?: string) =>
  Type.Union(
    [Type.Literal('electronic_signature'), Type.Literal('report')],
    description ? { description } : {},
  );

export const KEY_PATTERN = '^[a-z0-9_]{1,64}$';
/** Largest version content, in bytes of UTF-8. */
export const MAX_CONTENT_BYTES = 1024 * 1024;

const Key = Type.String({
  pattern: KEY_PATTERN,
  description:
    'Unique in the workspace: 1 to 64 lower-case letters, digits or underscores. Templates are addressed by key.',
});

export const DocumentTemplateCreate = Type.Object({
  key: Key,
  name: NonBlank({ maxLength: 200 }),
  kind: KindSchema(
    '`electronic_signature`: a document an electronic_signature check has signed; `report`: a case document',
  ),
});

export const DocumentTemplateVersionCreate = Type.Object({
  content: Type.String({
    minLength: 1,
    // characters: the byte limit (1 MB of UTF-8) is checked after
    maxLength: MAX_CONTENT_BYTES,
    description:
      'HTML with Handlebars placeholders ({{case.name}}, {{company.name}}, {{signer.full_name}}, {{formatDate date "long"}}...: see docs/document-templates.md). At most 1 MB. Checked at once: a syntax error is a 400 naming `content`.',
  }),
});

const VersionSummary = {
  number: Type.Integer({ minimum: 1, description: 'Version number: 1, 2, ... in order of creation' }),
  status: Type.Union([Type.Literal('draft'), Type.Literal('published')]),
  published_at: Nullable(DateTime),
  created_at: DateTime,
};

export const DocumentTemplateVersion = Type.Object({
  template_key: Type.String(),
  ...VersionSummary,
  content: Type.String(),
});

const TemplateFields = {
  id: Uuid,
  key: Type.String(),
  name: Type.String(),
  kind: KindSchema(),
  published_version: Nullable(
    Type.Integer({
      description: 'The version in use: the one published last; null while there are only drafts',
    }),
  ),
  latest_version: Nullable(Type.Integer({ description: 'Highest version number, draft or published' })),
  created_at: DateTime,
  updated_at: DateTime,
};

export const DocumentTemplateListItem = Type.Object(TemplateFields);
export const DocumentTemplate = Type.Object({
  ...TemplateFields,
  versions: Type.Array(Type.Object(VersionSummary), {
    description: 'Every version, oldest first (GET the version for its content)',
  }),
});

export const TemplateKeyParam = Type.Object({
  key: Type.String({ description: 'Key of the document template' }),
});
export const TemplateVersionParams = Type.Object({
  key: Type.String({ description: 'Key of the document template' }),
  number: Type.Integer({ minimum: 1, description: 'Version number' }),
});
export const RenderParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Id of the case' }),
  key: Type.String({ description: 'Key of the document template' }),
});
export const RenderBody = Type.Object({
  individual_id: Type.Optional(
    Type.String({
      format: 'uuid',
      description:
        'An individual of the case whose details fill the signer.* placeholders (an electronic_signature template’s preview). Without it they render empty.',
    }),
  ),
});
