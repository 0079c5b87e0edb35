import type { App, AppContext } from '../app-context.ts';
import { errors } from '../http/common-schemas.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { createNote } from './create-note.ts';
import { createNoteComment } from './create-note-comment.ts';
import { caseNoteListSpec, listCaseNotes } from './list-case-notes.ts';
import { CaseUuidParam, Note, NoteComment, NoteCommentCreate, NoteCreate, NoteIdParam } from './schemas.ts';

export function registerNoteRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/notes',
    {
      schema: {
        tags: ['Notes'],
        summary: 'Create a note',
        description:
          'Adds a note to a case (author_type `api`, or `user` with `author` when a console session writes it). Emits `Note.Created`.',
        body: NoteCreate,
        response: { 201: Note, ...errors(400, 404) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await createNote(ctx.db, req.principal.workspaceId, req.body)),
  );

  app.post(
    '/notes/:id/comments',
    {
      schema: {
        tags: ['Notes'],
        summary: 'Create a note comment',
        description:
          'Adds a comment to a note (author_type `api`, or `user` with `author` when a console session writes it). Emits `NoteComment.Created`.',
        params: NoteIdParam,
        body: NoteCommentCreate,
        response: { 201: NoteComment, ...errors(400, 404) },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await createNoteComment(ctx.db, req.principal.workspaceId, req.params.id, req.body)),
  );

  app.get(
    '/cases/:id/notes',
    {
      schema: {
        tags: ['Cases'],
        summary: "Retrieve case's notes",
        description: 'Notes of the case with their comments.',
        params: CaseUuidParam,
        querystring: listQuerySchema(caseNoteListSpec),
        response: { 200: paginated(Note), ...errors(400, 404) },
      },
    },
    (req) =>
      listCaseNotes(ctx.db, req.principal.workspaceId, req.params.id, req.query as Record<string, unknown>),
  );
}
