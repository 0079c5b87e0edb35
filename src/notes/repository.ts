import { findInLiveCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import type { NoteCommentRow } from '../db/schema.ts';

/** A note of a live case of the workspace, locked for a write in this transaction. */
export const lockNote = (trx: Db, workspaceId: string, noteId: string) =>
  findInLiveCase(trx, 'notes', workspaceId, noteId, { forUpdate: true });

/** Comments of several notes in one query, grouped by note id, oldest first. */
export async function commentsByNote(db: Db, workspaceId: string, noteIds: string[]) {
  const byNote = new Map<string, NoteCommentRow[]>();
  if (!noteIds.length) return byNote;
  const rows = await db
    .selectFrom('note_comments')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('note_id', 'in', noteIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  for (const r of rows) {
    const list = byNote.get(r.note_id);
    if (list) list.push(r);
    else byNote.set(r.note_id, [r]);
  }
  return byNote;
}

export async function countRows(
  db: Db,
  table: 'notes' | 'note_comments',
  column: 'case_id' | 'note_id',
  id: string,
) {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    // biome-ignore lint/suspicious/noExplicitAny: the column belongs to the chosen table
    .where(column as any, '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
