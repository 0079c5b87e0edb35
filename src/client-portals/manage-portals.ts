import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { updateIfChanged } from '../db/update-if-changed.ts';
import { attachUpload } from '../files/attach-upload.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { fetchPage, type ListSpec, parseListQuery } from '../http/list-query.ts';
import { ensureDefaultPortal, findPortal } from './default-portal.ts';
import { presentClientPortal } from './present.ts';
import { type ClientPortalUpdate, PORTAL_STATUSES } from './schemas.ts';

export const clientPortalListSpec: ListSpec = {
  filters: {
    name: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] },
    status: { kind: 'set', values: PORTAL_STATUSES },
    default_language: { kind: 'text', ops: ['eq', 'not_eq', 'like', 'ilike'] },
    created_at: { kind: 'date' },
    updated_at: { kind: 'date' },
  },
  sort: ['created_at', 'updated_at', 'name'],
  idColumn: 'id',
};

/** Logo formats a browser shows everywhere (the page renders it as an <img>). */
const LOGO_MIMES = new Set(['image/png', 'image/jpeg', 'image/webp']);

/** The workspace's portals, its default one created first if it has none yet. */
export async function listClientPortals(
  ctx: AppContext,
  workspaceId: string,
  query: Record<string, unknown>,
) {
  const parsed = parseListQuery(clientPortalListSpec, query);
  await ensureDefaultPortal(ctx.db, workspaceId);
  const base = ctx.db.selectFrom('client_portals').where('workspace_id', '=', workspaceId);
  const { rows, pagination } = await fetchPage(clientPortalListSpec, parsed, base, (qb) => qb.selectAll());
  return { data: rows.map((r) => presentClientPortal(r, ctx.config)), pagination };
}

export async function getClientPortal(ctx: AppContext, workspaceId: string, id: string) {
  await ensureDefaultPortal(ctx.db, workspaceId);
  const row = await findPortal(ctx.db, workspaceId, id);
  if (!row) throw notFound('Client portal');
  return presentClientPortal(row, ctx.config);
}

/**
 * PATCH /v1/client-portals/{id}: name, status, language and branding, wait steps. Only the fields
 * given change; the logo is an upload of the workspace, attached (kept) once it is the portal's. A
 * PATCH giving the values the portal has changes nothing, not even `updated_at`.
 */
export async function updateClientPortal(
  ctx: AppContext,
  workspaceId: string,
  id: string,
  input: Static<typeof ClientPortalUpdate>,
) {
  if (input.wait_steps) {
    const seen = new Set<string>();
    input.wait_steps.forEach((s, i) => {
      if (seen.has(s.key)) {
        throw badRequest(`wait_steps[${i}].key "${s.key}" is used twice`, `wait_steps[${i}].key`);
      }
      seen.add(s.key);
    });
  }
  return ctx.db.transaction().execute(async (trx) => {
    // locked: a PATCH giving the values it has answers the portal as it stays until this commits
    const found = await findPortal(trx, workspaceId, id, true);
    if (!found) throw notFound('Client portal');
    const set: Record<string, unknown> = {};
    if (input.name !== undefined) set.name = input.name;
    if (input.status !== undefined) set.status = input.status;
    if (input.default_language !== undefined) set.default_language = input.default_language;
    if (input.accent_color !== undefined) set.accent_color = input.accent_color?.toLowerCase() ?? null;
    if (input.wait_steps !== undefined) {
      set.wait_steps = JSON.stringify(input.wait_steps.map((s) => ({ key: s.key, title: s.title })));
    }
    if (input.logo_upload_ref === null) set.logo_file_id = null;
    else if (input.logo_upload_ref !== undefined) {
      const file = await attachUpload(trx, workspaceId, input.logo_upload_ref, 'logo_upload_ref');
      if (!LOGO_MIMES.has(file.mime)) {
        throw badRequest(
          `logo_upload_ref must be a PNG, JPEG or WebP image (this upload is ${file.mime})`,
          'logo_upload_ref',
        );
      }
      set.logo_file_id = file.id;
    }
    // the values it already has change nothing: updated_at stays (a no-op answers the portal as is)
    const row = await updateIfChanged(trx, 'client_portals', found.id, set, { updated_at: sql`now()` });
    return presentClientPortal(row ?? found, ctx.config);
  });
}
