import { Type } from 'typebox';
import { DateTime, Uuid } from '../http/common-schemas.ts';

/** Characters a label may not contain (they separate labels in filters and exports). */
export const FORBIDDEN_LABEL_CHARS = [',', ';', ':', '|', '/', '\\'];

const Label = Type.String({
  minLength: 1,
  maxLength: 100,
  description:
    'Unique in the workspace, compared case-insensitively; at most 100 characters; none of `, ; : | / \\`',
});

export const Tag = Type.Object({ id: Uuid, label: Type.String(), created_at: DateTime });
export const TagList = Type.Object({ tags: Type.Array(Tag) });
export const TagCreate = Type.Object({ label: Label });
export const TagUpdate = Type.Object({ label: Label });

export const CaseTagsCreate = Type.Object({
  tags: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
    minItems: 1,
    maxItems: 100,
    description: 'Tags, each given by its id or its label. Labels are matched case-insensitively.',
  }),
});

export const TagIdParam = Type.Object({ id: Type.String({ format: 'uuid', description: 'Id of the tag' }) });
export const CaseUuidParam = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Id of the case' }),
});
