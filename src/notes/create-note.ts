import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import { lockCase, touchCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import { recordEvents } from '../events/record-event.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { currentUserId } from '../shared/request-scope.ts';
import { nestedUsersById } from '../users/nested-user.ts';
import { checkContent } from './content.ts';
import { presentNote } from './present.ts';
import { countRows } from './repository.ts';
import { MAX_NOTES_PER_CASE, type NoteCreate } from './schemas.ts';

/** Adds a note written through the API to a case; emits `Note.Created`. */
export async function createNote(db: Db, workspaceId: string, input: Static<typeof NoteCreate>) {
  const content = await checkContent(db, workspaceId, input.content);
  return db.transaction().execute(async (trx) => {
    const kase = await lockCase(trx, workspaceId, input.case_id);
    if (!kase) throw notFound('Case', 'case_id');
    if ((await countRows(trx, 'notes', 'case_id', kase.id)) >= MAX_NOTES_PER_CASE) {
      throw badRequest(`Maximum items reached: a case holds at most ${MAX_NOTES_PER_CASE} notes`, 'case_id');
    }
    const row = await trx
      .insertInto('notes')
      .values({
        id: randomUUID(),
        workspace_id: workspaceId,
        case_id: kase.id,
        content,
        // a console user's session writes as that user; an API key as `api`
        author_type: currentUserId() ? 'user' : 'api',
        author_id: currentUserId(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const note = presentNote(row, [], await nestedUsersById(trx, workspaceId, [row.author_id]));
    await recordEvents(trx, workspaceId, [{ type: 'Note.Created', case_id: kase.id, payload: { note } }]);
    await touchCase(trx, kase.id);
    return note;
  });
}
