import { type TSchema, Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { sessionNestedUser } from '../audit-log/who.ts';
import { errors, IdParam, Nullable } from '../http/common-schemas.ts';
import { readIfMatch, sendVersion } from '../http/conditional.ts';
import { ApiError, badRequest, notFound } from '../http/errors.ts';
import { listQuerySchema, paginated } from '../http/list-query.ts';
import type { CheckTypeDefinition } from './check-type.ts';
import { createCheck } from './engine/create-check.ts';
import { deleteCheck } from './engine/delete-check.ts';
import { forceReview } from './engine/force-review.ts';
import { reviewCheck } from './engine/review-check.ts';
import { CheckEnvelope, fullCheckSchema } from './envelope-schema.ts';
import { checkListSpec, listChecks } from './list-checks.ts';
import { presentCheck } from './present.ts';
import { CHECK_TYPE_DEFINITIONS, typesNotEnabled } from './registry.ts';
import { findCheck } from './repository.ts';

const ReviewBody = Type.Object({
  action: Type.Enum(['approve', 'reject']),
  comment: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  override: Type.Optional(Type.Boolean()),
});

/** `an` before a vowel sound (`an AML`, `an eKYC`, `an ID`), else `a`. */
const article = (title: string) => (/^([AEIO]|e[A-Z]|ID)/.test(title) ? 'an' : 'a');

const fullCheck = (def: CheckTypeDefinition): TSchema =>
  fullCheckSchema(def.type, def.targets, def.dataSchema);

function registerTypeRoutes(app: App, ctx: AppContext, def: CheckTypeDefinition) {
  const tags = [`Checks: ${def.type}`];
  const Full = fullCheck(def);
  for (const path of [def.type, ...(def.pathAliases ?? [])]) {
    const hidden = path !== def.type;
    app.post(
      `/checks/${path}`,
      {
        schema: {
          hide: hidden,
          tags,
          summary: `Create ${article(def.docs.title)} ${def.docs.title} check`,
          description: `${def.docs.about}\n\nThe check starts on its target (${def.targets.join(' or ')}) and answers with its first status; what happens next is told by webhooks (Check.*) and by reading it.`,
          body: def.createBody,
          response: { 201: Full, ...errors(400, 404) },
        },
      },
      async (req, reply) =>
        reply
          .status(201)
          .send(await createCheck(ctx, req.principal.workspaceId, def, req.body as Record<string, unknown>)),
    );
    app.get(
      `/checks/${path}/:id`,
      {
        schema: {
          hide: hidden,
          tags,
          summary: `Retrieve ${article(def.docs.title)} ${def.docs.title} check`,
          description: `The check with its type-specific \`data\` (results, files, review). ${def.docs.about}`,
          params: IdParam,
          response: { 200: Full, ...errors(400, 404) },
        },
      },
      async (req, reply) => {
        const check = await findCheck(ctx.db, req.principal.workspaceId, req.params.id);
        if (!check || check.type !== def.type) throw notFound(`${def.type} check`);
        sendVersion(reply, check.updated_at);
        return presentCheck(check);
      },
    );
    app.patch(
      `/checks/${path}/:id/review`,
      {
        schema: {
          hide: hidden,
          tags,
          summary: `Review ${article(def.docs.title)} ${def.docs.title} check`,
          description:
            'Approves or rejects a check in need_review (or, with `override`, a decided one), with a comment. The review records who made it: `api` for a key, `user` for a console user. With `If-Match` (the ETag of the check as it was read), a check that changed since (a hit decided, another review) is a 412 and nothing is recorded.',
          params: IdParam,
          body: ReviewBody,
          response: { 200: Full, ...errors(400, 404, 412) },
        },
      },
      async (req, reply) => {
        const condition = readIfMatch(req.headers['if-match']);
        const out = await reviewCheck(
          ctx,
          req.principal.workspaceId,
          def,
          req.params.id,
          req.body,
          sessionNestedUser(req.principal),
          condition,
        );
        sendVersion(reply, out.updated_at);
        return out;
      },
    );
    if (def.forceReview) {
      app.post(
        `/checks/${path}/:id/force_review`,
        {
          schema: {
            hide: hidden,
            tags,
            summary: 'Send a processing check to review',
            description:
              'A check whose analysis is still running (processing) goes to need_review at once, so a reviewer can decide it from what is there. No body (an empty object is accepted); the comment of the decision goes with the review.',
            params: IdParam,
            // no fields: a `comment` was once accepted here and recorded nowhere; the reference
            // takes no body, and the reviewer's comment belongs to PATCH …/review
            body: Type.Optional(Type.Object({})),
            response: { 200: Full, ...errors(400, 404) },
          },
        },
        (req) => forceReview(ctx, req.principal.workspaceId, def, req.params.id),
      );
    }
  }
  def.routes?.(app, ctx);
}

export function registerCheckRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/checks',
    {
      schema: {
        tags: ['Checks'],
        summary: 'List checks (envelopes, without data)',
        querystring: listQuerySchema(checkListSpec, {
          exclude_internal: Type.Optional(Type.Boolean()),
          include_not_relevant: Type.Optional(Type.Boolean()),
        }),
        response: { 200: paginated(CheckEnvelope), ...errors(400) },
      },
    },
    (req) => listChecks(ctx.db, req.principal.workspaceId, req.query as Record<string, unknown>),
  );
  app.delete(
    '/checks/:id',
    {
      schema: {
        tags: ['Checks'],
        summary: 'Delete a check',
        params: IdParam,
        response: { 204: Type.Null(), ...errors(400, 404) },
      },
    },
    async (req, reply) => {
      await deleteCheck(ctx, req.principal.workspaceId, req.params.id);
      return reply.status(204).send(null);
    },
  );
  // read-only types (company_monitoring) have their own routes below: retrieve only
  for (const def of CHECK_TYPE_DEFINITIONS) if (!def.readOnly) registerTypeRoutes(app, ctx, def);
  // a create of a type that does not exist: a 404 naming the types, rather than a 405 saying that
  // /checks/{id} takes GET and DELETE (each real type has its own static route, matched first)
  app.post(
    '/checks/:type',
    {
      schema: {
        hide: true,
        tags: ['Checks'],
        summary: 'No such check type',
        params: Type.Object({ type: Type.String() }),
        body: Type.Unknown(),
        response: errors(404),
      },
    },
    async (req) => {
      const types = CHECK_TYPE_DEFINITIONS.filter((d) => !d.readOnly).map((d) => d.type);
      const message = `There is no check type ${req.params.type}: POST /v1/checks/{type} takes ${types.join(', ')}`;
      throw new ApiError(404, message, [{ path: 'type', message }]);
    },
  );
  for (const type of typesNotEnabled()) {
    for (const path of [type]) {
      app.post(
        `/checks/${path}`,
        {
          schema: {
            tags: ['Checks'],
            summary: `Create a ${type} check (not enabled on this service)`,
            response: errors(400),
          },
        },
        async () => {
          throw new ApiError(400, `The ${type} check type is not enabled on this service`);
        },
      );
    }
  }
  registerCompanyMonitoringRoutes(app, ctx);
}

/**
 * company_monitoring is read-only over the API (spec): it is configured on the workspace and has no
 * create endpoint. Reading answers with the check when one exists; creating is refused clearly. A
 * registry change it raised is acknowledged by a console user (the review route, for a session
 * only, hidden from the OpenAPI document): without it the check, and its case's `for_review`, could
 * never be cleared. An API key gets a 400 saying so.
 */
function registerCompanyMonitoringRoutes(app: App, ctx: AppContext) {
  const def = CHECK_TYPE_DEFINITIONS.find((d) => d.type === 'company_monitoring');
  const Full = def ? fullCheck(def) : undefined;
  for (const path of ['company_monitoring', 'company-monitoring']) {
    const hide = path !== 'company-monitoring';
    app.get(
      `/checks/${path}/:id`,
      {
        schema: {
          hide,
          tags: ['Checks'],
          summary: 'Retrieve a company monitoring check',
          description: def?.docs.about,
          params: IdParam,
          response: { ...(Full ? { 200: Full } : {}), ...errors(400, 404) },
        },
      },
      async (req, reply) => {
        const check = await findCheck(ctx.db, req.principal.workspaceId, req.params.id);
        if (check?.type !== 'company_monitoring') throw notFound('company_monitoring check');
        sendVersion(reply, check.updated_at);
        return presentCheck(check);
      },
    );
    app.patch(
      `/checks/${path}/:id/review`,
      {
        schema: {
          hide: true,
          tags: ['Checks'],
          summary: 'Review a company monitoring check (console users only)',
          params: IdParam,
          body: ReviewBody,
          response: { ...(Full ? { 200: Full } : {}), ...errors(400, 404, 412) },
        },
      },
      async (req, reply) => {
        const condition = readIfMatch(req.headers['if-match']);
        // another workspace's id, or an unknown one, is a 404 for a key as for a user
        const check = await findCheck(ctx.db, req.principal.workspaceId, req.params.id);
        if (check?.type !== 'company_monitoring') throw notFound('company_monitoring check');
        const user = sessionNestedUser(req.principal);
        if (!def || !user) {
          // the check's type is what refuses the review: named as the field at fault
          throw badRequest(
            'company_monitoring checks are read-only over the API: a console user reviews the registry changes they raise',
            'type',
          );
        }
        const out = await reviewCheck(
          ctx,
          req.principal.workspaceId,
          def,
          req.params.id,
          req.body,
          user,
          condition,
        );
        sendVersion(reply, out.updated_at);
        return out;
      },
    );
    app.post(
      `/checks/${path}`,
      {
        schema: {
          hide: true,
          tags: ['Checks'],
          summary: 'company_monitoring has no create endpoint',
          // whatever is sent, the answer says why there is no such endpoint
          body: Type.Unknown(),
          response: errors(400),
        },
      },
      async () => {
        throw badRequest(
          'company_monitoring checks have no create endpoint: monitoring is configured on the workspace',
          'type',
        );
      },
    );
  }
}
