import { Type } from 'typebox';
import { DateTime, Uuid } from '../http/common-schemas.ts';
import { NullableNestedUser } from '../users/nested-user.ts';

export const AuthorType = Type.Enum(['user', 'api']);

/** Longest content, counted without HTML tags. */
export const MAX_CONTENT_TEXT = 3000;
/** Notes per case and comments per note (beyond them, creation answers 400). */
export const MAX_NOTES_PER_CASE = 25;
export const MAX_COMMENTS_PER_NOTE = 50;

const content = Type.String({
  minLength: 1,
  maxLength: 100_000,
  // what src/notes/content.ts does to it: "Stored as given" said the opposite of the sanitising
  description: `HTML content; at most ${MAX_CONTENT_TEXT} characters once tags are ignored. Stored sanitised, not as given: only the tags p, b, i, em, strong, a, li, ul, span, br and hr are kept (others are removed, their text kept; scripts and styles with their text), links keep only http, https and mailto addresses and open in a new tab without referrer, bare URLs become links, line breaks become <br />, mentions are written from the user they name, and content not starting with <p> or <ul> (plain text) is wrapped in <p>.`,
});

export const NoteComment = Type.Object({
  id: Uuid,
  note_id: Uuid,
  content: Type.String({ description: 'HTML content' }),
  author: NullableNestedUser,
  author_type: AuthorType,
  created_at: DateTime,
  updated_at: DateTime,
});

export const Note = Type.Object({
  id: Uuid,
  case_id: Uuid,
  content: Type.String({ description: 'HTML content' }),
  comments: Type.Array(NoteComment, { description: `At most ${MAX_COMMENTS_PER_NOTE} comments per note.` }),
  author: NullableNestedUser,
  author_type: AuthorType,
  created_at: DateTime,
  updated_at: DateTime,
});

export const NoteCreate = Type.Object({
  case_id: Type.String({ format: 'uuid', description: 'Case id where the note is created' }),
  content,
});

export const NoteCommentCreate = Type.Object({ content });

export const NoteIdParam = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Id of the note' }),
});
export const CaseUuidParam = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Id of the case' }),
});
