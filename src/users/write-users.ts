import { randomUUID } from 'node:crypto';
import { generatePassword, hashPassword, passwordProblem } from '../console-auth/password.ts';
import { isRole } from '../console-auth/permissions.ts';
import { revokeUserSessions } from '../console-auth/sessions.ts';
import type { Db } from '../db/connect.ts';
import type { UserRow } from '../db/schema.ts';
import type { Role } from '../http/auth.ts';
import { ApiError, badRequest, conflict, notFound } from '../http/errors.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { noteAuditBefore } from '../shared/request-scope.ts';
import { presentUser } from './present.ts';

export interface NewUser {
  email: string;
  first_name?: string;
  last_name?: string;
  role: Role;
  password?: string;
}

/**
 * Creates a console user. Without a password one is generated and returned (shown once); either way
 * only its scrypt hash is stored. An e-mail is unique within a workspace, case-insensitively (409).
 */
export async function createUser(db: Db, workspaceId: string, input: NewUser) {
  if (!isRole(input.role)) throw badRequest('role must be admin, reviewer or viewer', 'role');
  const email = input.email.trim();
  if (input.password !== undefined) {
    const problem = passwordProblem(input.password);
    if (problem) throw badRequest(`password ${problem}`, 'password');
  }
  const generated = input.password === undefined ? generatePassword() : null;
  const password = input.password ?? (generated as string);
  const id = randomUUID();
  try {
    const row = await db
      .insertInto('users')
      .values({
        id,
        workspace_id: workspaceId,
        email,
        first_name: input.first_name ?? '',
        last_name: input.last_name ?? '',
        role: input.role,
        password_hash: await hashPassword(password),
        password_changed_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ...presentUser(row), ...(generated ? { password: generated } : {}) };
  } catch (err) {
    if (isUniqueViolation(err))
      throw conflict(`A user with the e-mail ${email} already exists in this workspace`, 'email');
    throw err;
  }
}

async function findUser(db: Db, workspaceId: string, id: string): Promise<UserRow> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('User');
  return row;
}

/** Other active admins of the workspace besides `userId`. */
async function otherActiveAdmins(db: Db, workspaceId: string, userId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'admin')
    .where('suspended_at', 'is', null)
    .where('id', '!=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface UserPatch {
  first_name?: string;
  last_name?: string;
  role?: Role;
  suspended?: boolean;
}

/**
 * Changes a user's name, role or suspension. Suspending revokes every session of the user at once.
 * The workspace keeps at least one active admin: demoting or suspending the last one is a 409.
 */
export async function updateUser(db: Db, workspaceId: string, id: string, patch: UserPatch) {
  return db.transaction().execute(async (trx) => {
    const tx = trx as unknown as Db;
    // one user change at a time per workspace: two admins demoting or suspending each other at once
    // would each count the other as the admin who stays, and leave none (read committed)
    await tx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
    const row = await findUser(tx, workspaceId, id);
    // the audit entry says what a role or suspension was, beside what it became
    noteAuditBefore({
      ...(patch.role !== undefined ? { role: row.role } : {}),
      ...(patch.suspended !== undefined ? { suspended: row.suspended_at !== null } : {}),
    });
    const losesAdmin =
      row.role === 'admin' &&
      !row.suspended_at &&
      ((patch.role !== undefined && patch.role !== 'admin') || patch.suspended === true);
    if (losesAdmin && (await otherActiveAdmins(tx, workspaceId, id)) === 0) {
      const field = patch.suspended === true ? 'suspended' : 'role';
      throw new ApiError(409, 'The workspace must keep at least one active admin', [
        { path: field, message: 'This is the last active admin of the workspace' },
      ]);
    }
    const set: Record<string, unknown> = {};
    if (patch.first_name !== undefined) set.first_name = patch.first_name;
    if (patch.last_name !== undefined) set.last_name = patch.last_name;
    if (patch.role !== undefined) set.role = patch.role;
    if (patch.suspended === true && !row.suspended_at) set.suspended_at = new Date();
    if (patch.suspended === false) set.suspended_at = null;
    const updated = Object.keys(set).length
      ? await tx.updateTable('users').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
      : row;
    if (patch.suspended === true) await revokeUserSessions(tx, id);
    return presentUser(updated);
  });
}

/** Signs a user out everywhere. */
export async function revokeSessionsOf(db: Db, workspaceId: string, id: string): Promise<number> {
  await findUser(db, workspaceId, id);
  return revokeUserSessions(db, id);
}
