import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { App, AppContext } from '../app-context.ts';
import { recordAuditEntry } from '../audit-log/record.ts';
import type { Db } from '../db/connect.ts';
import { ApiError } from '../http/errors.ts';
import { UUID_RE } from '../shared/pg-errors.ts';
import { iso } from '../shared/time.ts';
import { clearSessionCookie, readCookie, SESSION_COOKIE, setSessionCookie } from './cookies.ts';
import { type LoginLimiter, MemoryLoginLimiter, RedisLoginLimiter } from './login-limiter.ts';
import { hashPassword, PASSWORD_MAX_LENGTH, passwordProblem, verifyPassword } from './password.ts';
import { isRole, READ_METHODS } from './permissions.ts';
import {
  type ActiveSession,
  createSession,
  csrfMatches,
  resolveSession,
  revokeSession,
  revokeUserSessions,
} from './sessions.ts';

const BAD_CREDENTIALS = 'Invalid e-mail or password';

const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 320 }),
  password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  workspace: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: "The workspace's id or name" }),
  ),
});

const PasswordBody = Type.Object({
  current_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
  new_password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH }),
});

function sessionBody(s: {
  user: ActiveSession['user'];
  workspaceId: string;
  workspaceName: string;
  csrfToken: string;
  expiresAt: Date;
}) {
  return {
    user: {
      id: s.user.id,
      email: s.user.email,
      first_name: s.user.firstName,
      last_name: s.user.lastName,
      role: s.user.role,
    },
    workspace: { id: s.workspaceId, name: s.workspaceName },
    csrf_token: s.csrfToken,
    expires_at: iso(s.expiresAt),
  };
}

/** Users who may sign in with this e-mail (not suspended), narrowed to a workspace by id or name. */
/** The users the e-mail names (in the workspace given), suspended ones included: see the caller. */
async function candidates(db: Db, email: string, workspace: string | undefined) {
  let q = db
    .selectFrom('users as u')
    .innerJoin('workspaces as w', 'w.id', 'u.workspace_id')
    .select([
      'u.id',
      'u.workspace_id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.role',
      'u.password_hash',
      'w.name as workspace_name',
      'u.suspended_at',
    ])
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email.toLowerCase()));
  if (workspace !== undefined) {
    const isUuid = UUID_RE.test(workspace);
    q = q.where((eb) =>
      isUuid
        ? eb.or([eb('w.id', '=', workspace), eb('w.name', '=', workspace)])
        : eb('w.name', '=', workspace),
    );
  }
  const rows = await q.orderBy('w.created_at').execute();
  // a workspace's id names one workspace, where a name may be another's too (names are not unique,
  // and one may even read like another's id): given an id, the workspace it is the id of wins
  const byId = workspace !== undefined ? rows.filter((r) => r.workspace_id === workspace) : [];
  return byId.length ? byId : rows;
}

/**
 * The console's sign-in API under /console/api (hidden from /v1/openapi.json; documented in the
 * README's "Console sign-in"): login, the current session, logout and password change. The session
 * then authenticates /v1 through its cookie (src/http/auth.ts).
 */
export async function registerConsoleAuthRoutes(app: App, ctx: AppContext): Promise<void> {
  const times = {
    ttlHours: ctx.config.console.sessionTtlHours,
    idleMinutes: ctx.config.console.sessionIdleMinutes,
  };
  const limits = {
    maxFailuresPerEmail: ctx.config.console.loginMaxFailuresPerEmail,
    maxFailuresPerIp: ctx.config.console.loginMaxFailuresPerIp,
    windowMinutes: 15,
  };
  // shared by every API process through Redis when there is one, like the API's rate limit
  const limiter: LoginLimiter = ctx.config.redisUrl
    ? new RedisLoginLimiter(
        limits,
        (await import('../http/rate-limit-redis.ts')).rateLimitRedis(ctx.config.redisUrl),
        {
          onError: (err) =>
            app.log.warn({ err }, 'sign-in limit: Redis unreachable, counting in this process meanwhile'),
        },
      )
    : new MemoryLoginLimiter(limits);
  app.addHook('onClose', async () => limiter.close());

  await app.register(
    async (scope) => {
      const api = scope as unknown as App;
      api.addHook('onSend', async (_req, reply, payload) => {
        reply.header('cache-control', 'no-store');
        return payload;
      });

      /** One audit entry of a sign-in, sign-out or password change (src/audit-log). */
      const audit = (
        req: FastifyRequest,
        who: { workspaceId: string; id: string; email: string },
        action: string,
        statusCode: number,
        details: Record<string, unknown> = {},
      ) =>
        recordAuditEntry(
          ctx.db,
          {
            workspaceId: who.workspaceId,
            actor: { type: 'user', id: who.id, label: who.email },
            action,
            method: req.method,
            route: req.routeOptions.url ?? null,
            resourceType: 'user',
            resourceId: who.id,
            statusCode,
            ip: req.ip ?? null,
            userAgent: req.headers['user-agent'] ?? null,
            requestId: req.id,
            details,
          },
          req.log,
        );
      /** An entry of a session's user; `reason` says why a refused one was refused. */
      const auditSession = (
        req: FastifyRequest,
        s: ActiveSession,
        action: string,
        statusCode: number,
        reason?: string,
      ) =>
        audit(req, { workspaceId: s.workspaceId, id: s.user.id, email: s.user.email }, action, statusCode, {
          session_id: s.sessionId,
          ...(reason ? { reason } : {}),
        });
      /**
       * A refused sign-in, in the audit log of each workspace where the e-mail is a user (an unknown
       * e-mail belongs to no workspace and is not recorded).
       */
      const auditRefused = async (
        req: FastifyRequest,
        users: { workspace_id: string; id: string; email: string }[],
        reason: string,
        statusCode: number,
      ) => {
        for (const u of users) {
          await audit(
            req,
            { workspaceId: u.workspace_id, id: u.id, email: u.email },
            'console.login_failed',
            statusCode,
            {
              reason,
            },
          );
        }
      };

      /**
       * The request's live session, or 401; writes must carry its CSRF token (403). A write refused
       * for its token is recorded under `action` (a sign-out or password change someone else's page
       * tried to make is for compliance to see); a 401 names no user and is not.
       */
      const requireSession = async (req: FastifyRequest, action?: string): Promise<ActiveSession> => {
        const token = readCookie(req, SESSION_COOKIE);
        if (!token) throw new ApiError(401, 'Not signed in');
        // as /v1 counts them: a cookie that matches nothing costs a lookup (src/http/auth-failure-limit.ts)
        const tooMany = app.authFailures.refusal(req.ip, token);
        if (tooMany) throw tooMany;
        const session = await resolveSession(ctx.db, token, times);
        if (!session) {
          app.authFailures.failed(req.ip);
          throw new ApiError(401, 'Session expired or revoked: sign in again');
        }
        app.authFailures.vouch(token);
        if (
          !READ_METHODS.includes(req.method) &&
          !csrfMatches(req.headers['x-csrf-token'], session.csrfToken)
        ) {
          if (action) await auditSession(req, session, action, 403, 'csrf');
          throw new ApiError(403, 'CSRF token missing or invalid: send the X-CSRF-Token header');
        }
        return session;
      };

      api.post('/login', { schema: { hide: true, body: LoginBody } }, async (req, reply) => {
        const { password, workspace } = req.body;
        const email = req.body.email.trim();
        const wait = await limiter.blockedFor(req.ip, email);
        if (wait > 0) {
          await auditRefused(req, await candidates(ctx.db, email, workspace), 'rate_limited', 429);
          reply.header('retry-after', String(wait));
          throw new ApiError(429, `Too many failed sign-ins: retry in ${wait} seconds`);
        }
        const named = await candidates(ctx.db, email, workspace);
        // a suspended user cannot sign in, and is answered as a wrong password would be; the attempt
        // is still in the audit log (a suspended employee trying to get back in is for compliance
        // to see)
        const users = named.filter((u) => u.suspended_at === null);
        const suspended = named.filter((u) => u.suspended_at !== null);
        // every candidate's password is checked (one dummy check when there is none), so the answer
        // and its time do not tell whether the e-mail exists
        const matching = [];
        if (users.length === 0) await verifyPassword(password, null);
        for (const u of users) if (await verifyPassword(password, u.password_hash)) matching.push(u);
        if (matching.length === 0) {
          await limiter.failed(req.ip, email);
          await auditRefused(
            req,
            users,
            users.some((u) => u.password_hash) ? 'wrong_password' : 'no_password',
            401,
          );
          await auditRefused(req, suspended, 'suspended', 401);
          throw new ApiError(401, BAD_CREDENTIALS);
        }
        // Without `workspace`, an e-mail that is a user of several workspaces must name one as soon
        // as the password is right in any of them, not only when it is right in several: "right in
        // several" told the admin of one workspace, who sets the password of their own user of that
        // e-mail, whether a guess was the password of the user of another workspace (its 400 against
        // a sign-in to their own), with no failure counted. Now a right password gets the same 400
        // whatever the others' are; a guess tried with the other workspace named is a counted failure.
        const workspaces = new Set(named.map((u) => u.workspace_id));
        if (matching.length > 1 || (!workspace && workspaces.size > 1)) {
          // recorded where the password was right: the workspaces this sign-in would have entered
          await auditRefused(req, matching, 'workspace_not_named', 400);
          const message = 'This e-mail signs in to several workspaces: say which one (its id or name)';
          throw new ApiError(400, message, [{ path: 'workspace', message }]);
        }
        const user = matching[0];
        if (!isRole(user.role)) throw new ApiError(403, `Your role (${user.role}) cannot use the console`);
        const session = await createSession(ctx.db, user, times, {
          ip: req.ip ?? null,
          userAgent: req.headers['user-agent'] ?? null,
        });
        await ctx.db
          .updateTable('users')
          .set({ last_login_at: new Date() })
          .where('id', '=', user.id)
          .execute();
        await audit(
          req,
          { workspaceId: user.workspace_id, id: user.id, email: user.email },
          'console.login',
          200,
          {
            session_id: session.id,
          },
        );
        setSessionCookie(req, reply, session.token, session.expiresAt);
        // a new session works at once, even from an address sending made-up ones (auth-failure-limit.ts)
        app.authFailures.vouch(session.token);
        return sessionBody({
          user: {
            id: user.id,
            email: user.email,
            firstName: user.first_name,
            lastName: user.last_name,
            role: user.role,
          },
          workspaceId: user.workspace_id,
          workspaceName: user.workspace_name,
          csrfToken: session.csrfToken,
          expiresAt: session.expiresAt,
        });
      });

      // a browser that sends no session cookie has never signed in (or signed out): 204, no session,
      // so the console's first load shows its sign-in page without a 401 in the browser's console;
      // a cookie that no longer names a live session is the 401 that says the session ended
      api.get('/session', { schema: { hide: true } }, async (req, reply) => {
        if (!readCookie(req, SESSION_COOKIE)) return reply.status(204).send();
        return sessionBody(await requireSession(req));
      });

      api.post('/logout', { schema: { hide: true } }, async (req, reply) => {
        const session = await requireSession(req, 'console.logout');
        await revokeSession(ctx.db, session.sessionId);
        await auditSession(req, session, 'console.logout', 204);
        clearSessionCookie(req, reply);
        return reply.status(204).send();
      });

      api.post('/password', { schema: { hide: true, body: PasswordBody } }, async (req, reply) => {
        const session = await requireSession(req, 'console.password_change');
        // wrong current passwords count as failed sign-ins of the user's e-mail: a session left open
        // must not let anyone guess its password without limit (the address counted is the user's
        // own, so other users' failures from a shared address never block this change)
        const asUser = `user:${session.user.id}`;
        const wait = await limiter.blockedFor(asUser, session.user.email);
        if (wait > 0) {
          await auditSession(req, session, 'console.password_change', 429, 'rate_limited');
          reply.header('retry-after', String(wait));
          throw new ApiError(429, `Too many wrong passwords: retry in ${wait} seconds`);
        }
        const row = await ctx.db
          .selectFrom('users')
          .select('password_hash')
          .where('id', '=', session.user.id)
          .executeTakeFirstOrThrow();
        if (!(await verifyPassword(req.body.current_password, row.password_hash))) {
          await limiter.failed(asUser, session.user.email);
          // a guess at the password of a session left open is for compliance to see, as a failed
          // sign-in is
          await auditSession(req, session, 'console.password_change', 400, 'wrong_password');
          const message = 'The current password is wrong';
          throw new ApiError(400, message, [{ path: 'current_password', message }]);
        }
        // a "change" to the same password changed nothing, yet signed the user's other browsers out
        const problem =
          req.body.new_password === req.body.current_password
            ? 'must differ from the current password'
            : passwordProblem(req.body.new_password);
        if (problem) {
          await auditSession(req, session, 'console.password_change', 400, 'new_password_refused');
          const message = `new_password ${problem}`;
          throw new ApiError(400, message, [{ path: 'new_password', message }]);
        }
        await ctx.db
          .updateTable('users')
          .set({ password_hash: await hashPassword(req.body.new_password), password_changed_at: new Date() })
          .where('id', '=', session.user.id)
          .execute();
        // other browsers signed in with the old password are signed out; this one stays
        await revokeUserSessions(ctx.db, session.user.id, session.sessionId);
        await auditSession(req, session, 'console.password_change', 204);
        return reply.status(204).send();
      });
    },
    { prefix: '/console/api' },
  );
}
