import { passwordProblem } from '../console-auth/password.ts';
import { isRole } from '../console-auth/permissions.ts';
import type { Db } from '../db/connect.ts';
import type { Role } from '../http/auth.ts';
import { ApiError } from '../http/errors.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
import { createUser } from '../users/write-users.ts';
import { findWorkspace, findWorkspacesByName } from '../workspaces/repository.ts';

export interface CreateUserOptions {
  workspace: string;
  email: string;
  role: string;
  firstName?: string;
  lastName?: string;
  password?: string;
}

/** `vericase users create` (src/cli/program.ts) when it fails: a usage error (exit 2) or a refusal (exit 1), with the line to print. */
export class UsersCommandError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** The options' own checks (usage errors, exit 2), before any database is opened. */
export function checkUserOptions(opts: CreateUserOptions): void {
  if (!isRole(opts.role)) throw new UsersCommandError('--role must be admin, reviewer or viewer', 2);
  if (!/^[^\s@]+@[^\s@]+$/.test(opts.email))
    throw new UsersCommandError('--email must be an e-mail address', 2);
  const problem = opts.password === undefined ? null : passwordProblem(opts.password);
  if (problem) throw new UsersCommandError(`--password ${problem}`, 2);
}

/**
 * Workspace names are not unique (`workspaces create` takes any): a name two workspaces share
 * would give a user, an admin perhaps, access to whichever was created first. Refused instead,
 * naming the ids to choose from.
 */
async function workspaceNamed(db: Db, name: string) {
  const found = await findWorkspacesByName(db, name);
  if (found.length > 1) {
    const ids = found.map((w) => w.id).join(', ');
    throw new UsersCommandError(
      `${found.length} workspaces are named ${JSON.stringify(name)} (${ids}): give --workspace the id`,
      2,
    );
  }
  return found[0];
}

/**
 * The workspace a `--workspace <id|name>` option names (`users create`, `keys create`): by id, else
 * by name; a name several workspaces share is a usage error (exit 2), none found a refusal (exit 1).
 */
export async function workspaceByIdOrName(db: Db, idOrName: string) {
  const ws =
    (UUID_RE.test(idOrName) ? await findWorkspace(db, idOrName) : undefined) ??
    (await workspaceNamed(db, idOrName));
  if (!ws) throw new UsersCommandError(`no workspace with id or name ${idOrName}`, 1);
  return ws;
}

/**
 * `users create` without the command line around it: finds the workspace by id or name, creates
 * the user (its password generated when none is given) and answers what the command prints.
 */
export async function createUserCommand(db: Db, opts: CreateUserOptions) {
  checkUserOptions(opts);
  const ws = await workspaceByIdOrName(db, opts.workspace);
  try {
    const user = await createUser(db, ws.id, {
      email: opts.email,
      role: opts.role as Role, // checked above
      first_name: opts.firstName,
      last_name: opts.lastName,
      password: opts.password,
    });
    const { password, ...rest } = user as typeof user & { password?: string };
    return { ...rest, workspace: { id: ws.id, name: ws.name }, password: password ?? opts.password };
  } catch (err) {
    if (err instanceof ApiError) {
      const path = err.details?.[0]?.path;
      const flag = path === 'first_name' ? 'first-name' : path === 'last_name' ? 'last-name' : path;
      throw new UsersCommandError(
        flag ? `--${flag}: ${err.message}` : err.message,
        err.statusCode === 400 ? 2 : 1,
      );
    }
    throw err;
  }
}
