import type { NoteCommentRow, NoteRow } from '../db/schema.ts';
import { iso } from '../shared/time.ts';
import type { NestedUserOut } from '../users/nested-user.ts';

/** Authors by user id (see nestedUsersById); API-written rows have no author_id. */
export type Authors = Map<string, NestedUserOut>;

const authorOf = (authorId: string | null, authors: Authors) =>
  (authorId ? authors.get(authorId) : undefined) ?? null;

export function presentNoteComment(c: NoteCommentRow, authors: Authors = new Map()) {
  return {
    id: c.id,
    note_id: c.note_id,
    content: c.content,
    author: authorOf(c.author_id, authors),
    author_type: c.author_type as 'user' | 'api',
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
  };
}

export function presentNote(n: NoteRow, comments: NoteCommentRow[], authors: Authors = new Map()) {
  return {
    id: n.id,
    case_id: n.case_id,
    content: n.content,
    comments: comments.map((c) => presentNoteComment(c, authors)),
    author: authorOf(n.author_id, authors),
    author_type: n.author_type as 'user' | 'api',
    created_at: iso(n.created_at),
    updated_at: iso(n.updated_at),
  };
}

/** Every author id of some notes and their comments (to load them in one query). */
export function authorIds(notes: Pick<NoteRow, 'author_id'>[], comments: Iterable<NoteCommentRow[]>) {
  const ids: (string | null)[] = notes.map((n) => n.author_id);
  for (const list of comments) for (const c of list) ids.push(c.author_id);
  return ids;
}
