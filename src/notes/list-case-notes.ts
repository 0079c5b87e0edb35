import { findCaseById } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { nestedUsersById } from '../users/nested-user.ts';
import { authorIds, presentNote } from './present.ts';
import { commentsByNote } from './repository.ts';

export const caseNoteListSpec: ListSpec = {
  filters: {
    created_at: { kind: 'date' },
    updated_at: { kind: 'date' },
  },
  sort: ['created_at', 'updated_at'],
  idColumn: 'id',
};

/** A page of a case's notes, each with its comments (loaded in one query for the whole page). */
export async function listCaseNotes(
  db: Db,
  workspaceId: string,
  caseId: string,
  query: Record<string, unknown>,
) {
  const parsed = parseListQuery(caseNoteListSpec, query);
  const kase = await findCaseById(db, workspaceId, caseId);
  if (!kase) throw notFound('Case');
  const base = db.selectFrom('notes').where('workspace_id', '=', workspaceId).where('case_id', '=', kase.id);
  const { rows, pagination } = await fetchPage(caseNoteListSpec, parsed, base, (qb) => qb.selectAll());
  const comments = await commentsByNote(
    db,
    workspaceId,
    rows.map((r) => r.id),
  );
  const authors = await nestedUsersById(db, workspaceId, authorIds(rows, comments.values()));
  return {
    data: rows.map((r) => presentNote(r, comments.get(r.id) ?? [], authors)),
    pagination,
  };
}
