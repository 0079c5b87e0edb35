import type { NoteCommentRow, NoteRow } from '../db/schema.ts';
import { iso } from '../shared/time.ts';

export function presentNoteComment(c: NoteCommentRow) {
  return {
    id: c.id,
    note_id: c.note_id,
    content: c.content,
    author: null,
    author_type: c.author_type as 'user' | 'api',
    created_at: iso(c.created_at),
    updated_at: iso(c.updated_at),
  };
}

export function presentNote(n: NoteRow, comments: NoteCommentRow[]) {
  return {
    id: n.id,
    case_id: n.case_id,
    content: n.content,
    comments: comments.map(presentNoteComment),
    author: null,
    author_type: n.author_type as 'user' | 'api',
    created_at: iso(n.created_at),
    updated_at: iso(n.updated_at),
  };
}
