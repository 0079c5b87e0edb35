import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import type { Db } from '../db/connect.ts';
import { DateTime, errors, NonBlank, Nullable, Uuid } from '../http/common-schemas.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { SECRET_ANSWER } from '../http/idempotency.ts';
import { fetchPage, type ListSpec, listQuerySchema, paginated, parseListQuery } from '../http/list-query.ts';
import { currentUserId } from '../shared/request-scope.ts';
import { iso, isoOrNull } from '../shared/time.ts';
import { NullableNestedUser, nestedUsersById } from '../users/nested-user.ts';
import { createApiKey, lockWorkspaceRow } from './repository.ts';

const ApiKey = Type.Object(
  {
    id: Uuid,
    name: Nullable(Type.String()),
    prefix: Type.String({
      description: 'The first characters of the key, to recognise it; the key itself is never shown again',
    }),
    created_at: DateTime,
    revoked_at: Nullable(DateTime),
    created_by: NullableNestedUser,
  },
  { description: "A workspace's API key, without the key" },
);

const CreatedApiKey = Type.Object({
  ...ApiKey.properties,
  api_key: Type.String({ description: 'The key: answered only here, stored only as its SHA-256' }),
});

const apiKeyListSpec: ListSpec = {
  filters: { revoked_at: { kind: 'date' } },
  sort: ['created_at'],
  idColumn: 'id',
};

const ApiKeyListQuery = listQuerySchema(apiKeyListSpec, {
  include_revoked: Type.Optional(
    Type.Boolean({ default: false, description: 'Also list revoked keys (default: active keys only).' }),
  ),
});

type KeyRow = {
  id: string;
  name: string | null;
  prefix: string;
  created_at: Date | string;
  revoked_at: Date | null;
  created_by_user_id: string | null;
};

async function present(db: Db, workspaceId: string, rows: KeyRow[]) {
  const users = await nestedUsersById(
    db,
    workspaceId,
    rows.map((r) => r.created_by_user_id),
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    created_at: iso(r.created_at),
    revoked_at: isoOrNull(r.revoked_at),
    created_by: (r.created_by_user_id && users.get(r.created_by_user_id)) || null,
  }));
}

const COLUMNS = ['id', 'name', 'prefix', 'created_at', 'revoked_at', 'created_by_user_id'] as const;

/** The workspace's API keys under /v1/api-keys: list, create (shown once), revoke. Admins only. */
export function registerApiKeyRoutes(app: App, ctx: AppContext): void {
  const tags = ['API keys'];
  app.get(
    '/api-keys',
    {
      schema: {
        tags,
        summary: 'List API keys',
        description: "The workspace's keys, oldest first (the keys themselves are never shown again).",
        querystring: ApiKeyListQuery,
        response: { 200: paginated(ApiKey), ...errors(400, 403) },
      },
    },
    async (req) => {
      const query = { ...(req.query as Record<string, unknown>) };
      const includeRevoked = query.include_revoked === true;
      delete query.include_revoked;
      const parsed = parseListQuery(apiKeyListSpec, query);
      let base = ctx.db.selectFrom('api_keys').where('workspace_id', '=', req.principal.workspaceId);
      if (!includeRevoked) base = base.where('revoked_at', 'is', null);
      const { rows, pagination } = await fetchPage(apiKeyListSpec, parsed, base, (qb) => qb.select(COLUMNS));
      return { data: await present(ctx.db, req.principal.workspaceId, rows), pagination };
    },
  );

  app.post(
    '/api-keys',
    {
      config: SECRET_ANSWER,
      schema: {
        tags,
        summary: 'Create an API key',
        description: 'The key is answered once, in `api_key`; only its SHA-256 is stored.',
        body: Type.Object({ name: NonBlank({ maxLength: 100 }) }),
        response: { 201: CreatedApiKey, ...errors(400, 403) },
      },
    },
    async (req, reply) => {
      const workspaceId = req.principal.workspaceId;
      const created = await createApiKey(ctx.db, workspaceId, undefined, {
        name: req.body.name.trim(),
        createdByUserId: currentUserId(),
      });
      const row = await ctx.db
        .selectFrom('api_keys')
        .select(COLUMNS)
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      const [out] = await present(ctx.db, workspaceId, [row]);
      return reply.status(201).send({ ...out, api_key: created.api_key });
    },
  );

  app.delete(
    '/api-keys/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an API key',
        description:
          "Immediate on the process that answers; other API processes stop accepting it within VERICASE_AUTH_CACHE_TTL_MS. Revoking a revoked key is a 204 again. A request made with an API key cannot revoke the workspace's last active key (400 naming `id`): create another first; a console admin may.",
        params: Type.Object({ id: Type.String({ format: 'uuid', description: 'Id of the key' }) }),
        response: { 204: Type.Null(), ...errors(400, 403, 404) },
      },
    },
    async (req, reply) => {
      const workspaceId = req.principal.workspaceId;
      const row = await ctx.db.transaction().execute(async (trx) => {
        // revocations of one workspace's keys one at a time: two requests revoking each other's
        // key cannot both see the other one still active
        await lockWorkspaceRow(trx, workspaceId);
        const found = await trx
          .selectFrom('api_keys')
          .select(['id', 'key_hash', 'revoked_at'])
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', req.params.id)
          .executeTakeFirst();
        if (!found) throw notFound('API key');
        if (found.revoked_at) return found;
        // A request made with an API key cannot revoke the workspace's last active one: nothing
        // could call the API afterwards (a console admin can still create one, and may revoke it)
        if (req.principal.keyId !== null) {
          const other = await trx
            .selectFrom('api_keys')
            .select('id')
            .where('workspace_id', '=', workspaceId)
            .where('revoked_at', 'is', null)
            .where('id', '<>', found.id)
            .executeTakeFirst();
          if (!other)
            throw badRequest(
              "This is the workspace's last active API key: revoked, nothing could call the API. Create another key first (POST /v1/api-keys), then revoke this one",
              'id',
            );
        }
        await trx
          .updateTable('api_keys')
          .set({ revoked_at: new Date() })
          .where('id', '=', found.id)
          .where('revoked_at', 'is', null)
          .execute();
        return found;
      });
      ctx.keys.forget(row.key_hash);
      return reply.status(204).send(null);
    },
  );
}
