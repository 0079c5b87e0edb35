import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { errors, IdParam } from '../http/common-schemas.ts';
import { notFound } from '../http/errors.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import { createTemplate } from './create-template.ts';
import { deleteTemplate } from './delete-template.ts';
import { listTemplates, templateListSpec } from './list-templates.ts';
import { presentTemplate } from './present.ts';
import { findTemplate } from './repository.ts';
import { runTemplate } from './run-template.ts';
import { RunTemplate, Template, TemplateCreate, TemplateExecution, TemplateUpdate } from './schemas.ts';
import { updateTemplate } from './update-template.ts';

export function registerTemplateRoutes(app: App, ctx: AppContext): void {
  const tags = ['Templates'];
  app.get(
    '/templates',
    {
      schema: {
        tags,
        summary: 'List templates',
        description: 'Default order: updated_at ascending.',
        querystring: listQuerySchema(templateListSpec),
        response: { 200: paginated(Template), ...errors(400) },
      },
    },
    (req) => listTemplates(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
  app.get(
    '/templates/:id',
    {
      schema: {
        tags,
        summary: 'Retrieve a template',
        params: IdParam,
        response: { 200: Template, ...errors(400, 404) },
      },
    },
    async (req) => {
      const t = await findTemplate(ctx.db, req.principal.workspaceId, req.params.id);
      if (!t) throw notFound('Template');
      return presentTemplate(t);
    },
  );
  app.post(
    '/templates',
    {
      schema: {
        tags,
        summary: 'Create a template',
        description:
          'Each check: an enabled check type, the targets it is created on, and the type settings. ' +
          'With case_auto_approval, a case becomes approved (reviewer system) once every check the ' +
          'template created on it is approved while the case is open, or when a draft whose ' +
          'template checks are all approved is opened.',
        body: TemplateCreate,
        response: { 201: Template, ...errors(400, 409) },
      },
    },
    async (req, reply) =>
      reply.status(201).send(await createTemplate(ctx.db, req.principal.workspaceId, req.body)),
  );
  app.patch(
    '/templates/:id',
    {
      schema: {
        tags,
        summary: 'Update a template (checks apply to later runs)',
        params: IdParam,
        body: TemplateUpdate,
        response: { 200: Template, ...errors(400, 404, 409) },
      },
    },
    (req) => updateTemplate(ctx.db, req.principal.workspaceId, req.params.id, req.body),
  );
  app.delete(
    '/templates/:id',
    {
      schema: {
        tags,
        summary: 'Delete a template',
        params: IdParam,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      await deleteTemplate(ctx.db, req.principal.workspaceId, req.params.id);
      return reply.status(204).send(null);
    },
  );
  app.post(
    '/templates/run',
    {
      schema: {
        tags,
        summary: 'Run a template on a case',
        description:
          'Creates the template checks on the case in one transaction. template_key (or the deprecated ' +
          "template_id) changes the case's template; without either, the case's template runs again.",
        body: RunTemplate,
        response: { 201: TemplateExecution, ...errors(400, 404) },
      },
    },
    async (req, reply) => reply.status(201).send(await runTemplate(ctx, req.principal.workspaceId, req.body)),
  );
}
