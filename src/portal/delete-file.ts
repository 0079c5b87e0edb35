import type { AppContext } from '../app-context.ts';
import { notFound } from '../http/errors.ts';
import { type Action, assertAccepting, findShown, readAction } from './actions.ts';
import type { PortalAccess } from './auth.ts';
import { recordContactAction } from './contact-action.ts';
import { dropPendingFiles } from './pending-files.ts';

/**
 * `DELETE /portal/api/actions/{id}/files/{file_id}`: removes a pending file of the action (404 for
 * any other id, a submitted file included: it belongs to the check now).
 */
export async function deletePendingFile(
  ctx: AppContext,
  access: PortalAccess,
  checkId: string,
  pendingFileId: string,
): Promise<Action> {
  const { link } = access;
  await ctx.db.transaction().execute(async (trx) => {
    const shown = await findShown(trx, link, checkId, true);
    assertAccepting(shown.check);
    const pending = await trx
      .selectFrom('client_portal_pending_files')
      .select('id')
      .where('id', '=', pendingFileId)
      .where('check_id', '=', checkId)
      .where('workspace_id', '=', link.workspace_id)
      .executeTakeFirst();
    if (!pending) throw notFound('File');
    await dropPendingFiles(trx, checkId, [pending.id]);
    await recordContactAction(trx, link.workspace_id, link.case_id);
  });
  return readAction(ctx.db, link, checkId);
}
