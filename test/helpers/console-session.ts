import { randomUUID } from 'node:crypto';
import type { App, AppContext } from '../../src/app-context.ts';
import { hashPassword } from '../../src/console-auth/password.ts';
import type { Db } from '../../src/db/connect.ts';
import type { Role } from '../../src/http/auth.ts';

export interface ConsoleUser {
  id: string;
  email: string;
  password: string;
}

/**
 * Creates a console user straight in the database (the API's POST /v1/users does the same with an
 * admin's session or a key): a unique e-mail and a known password unless given.
 */
export async function createConsoleUser(
  ctxOrDb: AppContext | Db,
  workspaceId: string,
  opts: { role: Role; email?: string; password?: string; firstName?: string; lastName?: string },
): Promise<ConsoleUser> {
  const db = 'db' in ctxOrDb && 'config' in ctxOrDb ? ctxOrDb.db : (ctxOrDb as Db);
  const id = randomUUID();
  const email = opts.email ?? `${opts.role}-${id.slice(0, 8)}@example.test`;
  const password = opts.password ?? `pw-${randomUUID()}`;
  await db
    .insertInto('users')
    .values({
      id,
      workspace_id: workspaceId,
      email,
      first_name: opts.firstName ?? opts.role[0].toUpperCase() + opts.role.slice(1),
      last_name: opts.lastName ?? 'Tester',
      role: opts.role,
      password_hash: await hashPassword(password),
      password_changed_at: new Date(),
    })
    .execute();
  return { id, email, password };
}

export interface SignInHeaders {
  cookie: string;
  'x-csrf-token': string;
  [name: string]: string;
}

/**
 * Signs in through POST /console/api/login (an app through inject, or a base URL over HTTP) and
 * returns the headers a /v1 request needs: the session cookie and the CSRF token.
 */
export async function signInHeaders(
  target: App | string,
  email: string,
  password: string,
  workspace?: string,
): Promise<SignInHeaders> {
  const body = { email, password, ...(workspace ? { workspace } : {}) };
  let status: number;
  let text: string;
  let setCookie: string | string[] | undefined;
  if (typeof target === 'string') {
    const res = await fetch(`${target.replace(/\/$/, '')}/console/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    status = res.status;
    text = await res.text();
    setCookie = res.headers.getSetCookie();
  } else {
    const res = await target.inject({ method: 'POST', url: '/console/api/login', payload: body });
    status = res.statusCode;
    text = res.body;
    setCookie = res.headers['set-cookie'];
  }
  if (status !== 200) throw new Error(`sign-in as ${email} failed: ${status} ${text}`);
  const cookies = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const session = cookies.map((c) => c.split(';')[0]).find((c) => c.startsWith('vericase_session='));
  if (!session) throw new Error('sign-in answered no vericase_session cookie');
  return { cookie: session, 'x-csrf-token': (JSON.parse(text) as { csrf_token: string }).csrf_token };
}
