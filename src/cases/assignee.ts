import type { Db } from '../db/connect.ts';
import { badRequest } from '../http/errors.ts';
import { UUID_RE } from '../shared/pg-errors.ts';

/**
 * A case is assigned to a console user who can act on it: an active reviewer or admin of the case's
 * workspace (the reference takes a user's uuid). Any string was stored before: a mistyped id, another
 * workspace's user or a viewer became an assignee nobody was, shown raw in the console's choices.
 * Cases assigned so before keep their value (reads name no user for it: `assignee: null`).
 */
export async function checkAssignee(
  db: Db,
  workspaceId: string,
  given: string | null | undefined,
  path = 'assignee_id',
): Promise<string | null | undefined> {
  if (given === null || given === undefined) return given;
  // stored as the user's id is written (lower case): an upper-case one matched no user on reading,
  // no filter and no queue (the case read as unassigned)
  const assigneeId = given.toLowerCase();
  if (!UUID_RE.test(assigneeId)) {
    throw badRequest(`${path} must be the id (a UUID) of a user of this workspace, or null`, path);
  }
  const user = await db
    .selectFrom('users')
    .select(['role', 'suspended_at', 'email'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', assigneeId)
    .executeTakeFirst();
  if (!user) throw badRequest(`${path}: no user of this workspace has the id ${assigneeId}`, path);
  if (user.suspended_at) throw badRequest(`${path}: ${user.email} is suspended`, path);
  if (user.role === 'viewer') {
    throw badRequest(
      `${path}: ${user.email} is a viewer; a case is assigned to a reviewer or an admin`,
      path,
    );
  }
  return assigneeId;
}
