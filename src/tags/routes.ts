import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors } from '../http/common-schemas.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { addCaseTags } from './add-case-tags.ts';
import { createTag } from './create-tag.ts';
import { deleteTag } from './delete-tag.ts';
import { getCaseTags } from './get-case-tags.ts';
import { getTag } from './get-tag.ts';
import { listTags, tagListSpec } from './list-tags.ts';
import { removeCaseTags } from './remove-case-tags.ts';
import { CaseTagsCreate, CaseUuidParam, Tag, TagCreate, TagIdParam, TagList, TagUpdate } from './schemas.ts';
import { updateTag } from './update-tag.ts';

export function registerTagRoutes(app: App, ctx: AppContext): void {
  const tags = ['Tags'];
  app.get(
    '/tags',
    {
      schema: {
        tags,
        summary: 'List all tags',
        querystring: listQuerySchema(tagListSpec),
        response: { 200: paginated(Tag), ...errors(400) },
      },
    },
    (req) => listTags(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );

  app.post(
    '/tags',
    {
      schema: {
        tags,
        summary: 'Create a tag',
        body: TagCreate,
        response: { 201: Tag, ...errors(400, 409) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await createTag(ctx.db, req.principal.workspaceId, req.body)),
  );

  app.get(
    '/tags/:id',
    {
      schema: {
        tags,
        summary: 'Retrieve a tag',
        params: TagIdParam,
        response: { 200: Tag, ...errors(400, 404) },
      },
    },
    (req) => getTag(ctx.db, req.principal.workspaceId, req.params.id),
  );

  app.patch(
    '/tags/:id',
    {
      schema: {
        tags,
        summary: 'Update a tag',
        description:
          'Renaming a tag renames it on every case carrying it (`Case.Updated` / `Case.TagsUpdated`).',
        params: TagIdParam,
        body: TagUpdate,
        response: { 200: Tag, ...errors(400, 404) },
      },
    },
    (req) => updateTag(ctx.db, req.principal.workspaceId, req.params.id, req.body),
  );

  app.delete(
    '/tags/:id',
    {
      schema: {
        tags,
        summary: 'Delete a tag',
        description:
          'The tag is also removed from every case carrying it (`Case.Updated` / `Case.TagsUpdated`).',
        params: TagIdParam,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      await deleteTag(ctx.db, req.principal.workspaceId, req.params.id);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/cases/:id/tags',
    {
      schema: {
        tags,
        summary: "Get case's tags",
        params: CaseUuidParam,
        response: { 200: TagList, ...errors(400, 404) },
      },
    },
    (req) => getCaseTags(ctx.db, req.principal.workspaceId, req.params.id),
  );

  app.post(
    '/cases/:id/tags',
    {
      schema: {
        tags,
        summary: 'Add tags to case',
        description:
          'Each entry is a tag id or a label; unknown labels create workspace tags. Returns every tag of the case.',
        params: CaseUuidParam,
        body: CaseTagsCreate,
        response: { 201: TagList, ...errors(400, 404) },
      },
    },
    async (req, reply) =>
      reply
        .status(201)
        .send(await addCaseTags(ctx.db, req.principal.workspaceId, req.params.id, req.body.tags)),
  );

  app.delete(
    '/cases/:id/tags',
    {
      schema: {
        tags,
        summary: "Delete case's tags",
        description:
          'Each entry is a tag id or a label; any entry not on the case gives 404 and changes nothing.',
        params: CaseUuidParam,
        body: CaseTagsCreate,
        response: { 200: TagList, ...errors(400, 404) },
      },
    },
    (req) => removeCaseTags(ctx.db, req.principal.workspaceId, req.params.id, req.body.tags),
  );
}
