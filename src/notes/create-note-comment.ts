import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import { touchCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import { recordEvents } from '../events/record-event.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { currentUserId } from '../shared/request-scope.ts';
import { nestedUsersById } from '../users/nested-user.ts';
import { checkContent } from './content.ts';
import { authorIds, presentNote, presentNoteComment } from './present.ts';
import { commentsByNote, countRows, lockNote } from './repository.ts';
import { MAX_COMMENTS_PER_NOTE, type NoteCommentCreate } from './schemas.ts';

/** Adds a comment written through the API to a note; emits `NoteComment.Created`. */
export async function createNoteComment(
  db: Db,
  workspaceId: string,
  noteId: string,
  input: Static<typeof NoteCommentCreate>,
) {
  const content = await checkContent(db, workspaceId, input.content);
  return db.transaction().execute(async (trx) => {
    const note = await lockNote(trx, workspaceId, noteId);
    if (!note) throw notFound('Note');
    if ((await countRows(trx, 'note_comments', 'note_id', note.id)) >= MAX_COMMENTS_PER_NOTE) {
      throw badRequest(`Maximum items reached: a note holds at most ${MAX_COMMENTS_PER_NOTE} comments`);
    }
    const row = await trx
      .insertInto('note_comments')
      .values({
        id: randomUUID(),
        workspace_id: workspaceId,
        note_id: note.id,
        content,
        author_type: currentUserId() ? 'user' : 'api',
        author_id: currentUserId(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const comments = (await commentsByNote(trx, workspaceId, [note.id])).get(note.id) ?? [];
    const authors = await nestedUsersById(trx, workspaceId, authorIds([note], [comments]));
    const comment = presentNoteComment(row, authors);
    const presentedNote = presentNote(note, comments, authors);
    // the reference's payload keys: the comment as `noteComment`, with its note (and comments)
    await recordEvents(trx, workspaceId, [
      {
        type: 'NoteComment.Created',
        case_id: note.case_id,
        payload: { noteComment: comment, note: presentedNote },
      },
    ]);
    await touchCase(trx, note.case_id);
    return comment;
  });
}
