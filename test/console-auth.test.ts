import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { hashPassword } from '../src/console-auth/password.ts';
import { hashSessionToken } from '../src/console-auth/sessions.ts';
import { buildApp } from '../src/http/app.ts';
import { createConsoleUser, signInHeaders } from './helpers/console-session.ts';
import { getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

async function login(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const { app } = await getHarness();
  return app.inject({ method: 'POST', url: '/console/api/login', payload: body, headers });
}

function sessionCookie(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const c = all.find((x) => x.startsWith('vericase_session='));
  assert.ok(c, `no session cookie in ${JSON.stringify(setCookie)}`);
  return c;
}

describe('console sign-in', () => {
  test('login answers the user, workspace, CSRF token and an HttpOnly SameSite=Strict cookie; the session reads /v1', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('console');
    const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'reviewer' });

    const res = await login({ email: user.email.toUpperCase(), password: user.password });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(Object.keys(body).sort(), ['csrf_token', 'expires_at', 'user', 'workspace']);
    assert.deepEqual(body.user, {
      id: user.id,
      email: user.email,
      first_name: 'Reviewer',
      last_name: 'Tester',
      role: 'reviewer',
    });
    assert.equal(body.workspace.id, ws.workspaceId);
    const hours = (Date.parse(body.expires_at) - Date.now()) / 3_600_000;
    assert.ok(hours > 11.9 && hours <= 12, `expires in ${hours} h`);
    const cookie = sessionCookie(res.headers['set-cookie']);
    assert.match(cookie, /; Path=\/(;|$)/);
    assert.match(cookie, /; HttpOnly(;|$)/);
    assert.match(cookie, /; SameSite=Strict(;|$)/);
    assert.doesNotMatch(cookie, /Secure/);
    assert.equal(res.headers['cache-control'], 'no-store');

    // stored: the token's SHA-256 only, never the token
    const token = cookie.split(';')[0].slice('vericase_session='.length);
    const rows = await ctx.db
      .selectFrom('console_sessions')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0].token_hash, hashSessionToken(token));
    assert.notEqual(rows[0].token_hash, token);
    assert.equal(rows[0].csrf_token, body.csrf_token);
    const u = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.ok(u.last_login_at);
    assert.match(u.password_hash ?? '', /^scrypt\$32768\$8\$1\$/);
    assert.ok(!(u.password_hash ?? '').includes(user.password));

    const headers = { cookie: cookie.split(';')[0] };
    const session = await app.inject({ method: 'GET', url: '/console/api/session', headers });
    assert.equal(session.statusCode, 200);
    assert.deepEqual(session.json(), body);

    const ping = await app.inject({ method: 'GET', url: '/v1/ping', headers });
    assert.equal(ping.statusCode, 200, ping.body);
    assert.equal(ping.json().workspace_name, body.workspace.name);

    // a write with the CSRF token creates a case in the user's workspace
    const created = await app.inject({
      method: 'POST',
      url: '/v1/cases',
      headers: { ...headers, 'x-csrf-token': body.csrf_token },
      payload: sampleCaseBody(),
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal((await ws.get(`/v1/cases/${created.json().id}`)).status, 200);
  });

  test('wrong password and unknown e-mail: the same 401; bad input is a 400 naming the field', async () => {
    const { ctx } = await getHarness();
    const ws = await newWorkspace('console');
    const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
    const wrong = await login({ email: user.email, password: 'not-the-password' });
    const unknown = await login({ email: `nobody-${Date.now()}@example.test`, password: 'whatever-it-is' });
    assert.equal(wrong.statusCode, 401);
    assert.equal(unknown.statusCode, 401);
    assert.equal(wrong.json().message, 'Invalid e-mail or password');
    assert.equal(unknown.json().message, wrong.json().message);
    assert.equal(wrong.headers['set-cookie'], undefined);

    const noPassword = await login({ email: user.email });
    assert.equal(noPassword.statusCode, 400);
    assert.match(JSON.stringify(noPassword.json()), /password/);
    const extra = await login({ email: user.email, password: user.password, remember: true });
    assert.equal(extra.statusCode, 400);
    assert.match(JSON.stringify(extra.json()), /remember/);

    // the e-mail as typed, spaces around it and any case
    assert.equal(
      (await login({ email: ` ${user.email.toUpperCase()} `, password: user.password })).statusCode,
      200,
    );

    // a suspended user cannot sign in
    await ctx.db.updateTable('users').set({ suspended_at: new Date() }).where('id', '=', user.id).execute();
    const suspended = await login({ email: user.email, password: user.password });
    assert.equal(suspended.statusCode, 401);
    // answered as a wrong password, and in the audit log all the same (it left no trace)
    assert.equal(suspended.json().message, wrong.json().message);
    const refused = await ctx.db
      .selectFrom('audit_log')
      .select(['action', 'status_code', 'details', 'actor_id'])
      .where('resource_id', '=', user.id)
      .where('action', '=', 'console.login_failed')
      .orderBy('occurred_at', 'desc')
      .executeTakeFirstOrThrow();
    assert.deepEqual(refused, {
      action: 'console.login_failed',
      status_code: 401,
      details: { reason: 'suspended' },
      actor_id: user.id,
    });
  });

  test('an e-mail in two workspaces needs the workspace (id or name) once the password is right', async () => {
    const { ctx } = await getHarness();
    const a = await newWorkspace('ws-a');
    const b = await newWorkspace('ws-b');
    const email = `shared-${Date.now()}@example.test`;
    const ua = await createConsoleUser(ctx, a.workspaceId, {
      role: 'admin',
      email,
      password: 'same-password-1',
    });
    const ub = await createConsoleUser(ctx, b.workspaceId, {
      role: 'viewer',
      email,
      password: 'same-password-1',
    });
    const ambiguous = await login({ email, password: 'same-password-1' });
    assert.equal(ambiguous.statusCode, 400);
    assert.equal(ambiguous.json().details[0].path, 'workspace');
    // a wrong password does not tell that the e-mail is in several workspaces
    assert.equal((await login({ email, password: 'wrong-password-x' })).statusCode, 401);
    // b's password changed: the right password of one workspace still needs the workspace named, so
    // that an admin of b, who sets b's password, cannot learn from the answer whether a guess is a's
    // password (it was a sign-in to b for a wrong guess, a 400 for the right one)
    await ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('b-password-22') })
      .where('id', '=', ub.id)
      .execute();
    for (const password of ['b-password-22', 'same-password-1']) {
      const res = await login({ email, password });
      assert.equal(res.statusCode, 400, res.body);
      assert.equal(res.json().details[0].path, 'workspace');
    }
    // each 400 is recorded as a refused sign-in where the password was right (both the first time,
    // then b, then a), never where it was wrong
    const notNamed = await ctx.db
      .selectFrom('audit_log')
      .select(['workspace_id', 'actor_id', 'status_code', 'details'])
      .where('action', '=', 'console.login_failed')
      .where('workspace_id', 'in', [a.workspaceId, b.workspaceId])
      .where(sql<boolean>`details->>'reason' = 'workspace_not_named'`)
      .execute();
    const count = (id: string) => notNamed.filter((r) => r.actor_id === id && r.status_code === 400).length;
    assert.equal(notNamed.length, 4, JSON.stringify(notNamed));
    assert.equal(count(ua.id), 2);
    assert.equal(count(ub.id), 2);
    // a guess at a's password, with a named: a counted failure like any
    assert.equal(
      (await login({ email, password: 'b-password-22', workspace: a.workspaceId })).statusCode,
      401,
    );
    const intoB = await login({ email, password: 'b-password-22', workspace: b.workspaceId });
    assert.equal(intoB.statusCode, 200, intoB.body);
    await ctx.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('same-password-1') })
      .where('id', '=', ub.id)
      .execute();

    const byId = await login({ email, password: 'same-password-1', workspace: a.workspaceId });
    assert.equal(byId.statusCode, 200);
    assert.equal(byId.json().user.id, ua.id);
    const bName = (await b.get('/v1/ping')).body.workspace_name;
    const byName = await login({ email, password: 'same-password-1', workspace: bName });
    assert.equal(byName.statusCode, 200);
    assert.equal(byName.json().user.id, ub.id);
    assert.equal(byName.json().user.role, 'viewer');
    // a third workspace named like a's id, the same user in it: a's id still names a
    const { createWorkspace } = await import('../src/workspaces/repository.ts');
    const lookalike = await createWorkspace(ctx.db, a.workspaceId);
    await createConsoleUser(ctx, lookalike.id, { role: 'viewer', email, password: 'same-password-1' });
    const stillA = await login({ email, password: 'same-password-1', workspace: a.workspaceId });
    assert.equal(stillA.statusCode, 200, stillA.body);
    assert.equal(stillA.json().user.id, ua.id);
  });

  test('CSRF: a write without the token or with a wrong one is a 403; reads need none; a key header wins', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('csrf');
    const other = await newWorkspace('csrf-other');
    const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'admin' });
    const h = await signInHeaders(app, user.email, user.password);
    const noToken = await app.inject({
      method: 'POST',
      url: '/v1/cases',
      headers: { cookie: h.cookie },
      payload: sampleCaseBody(),
    });
    assert.equal(noToken.statusCode, 403);
    assert.match(noToken.json().message, /^CSRF token missing or invalid/);
    const wrong = await app.inject({
      method: 'POST',
      url: '/v1/cases',
      headers: { cookie: h.cookie, 'x-csrf-token': `${h['x-csrf-token']}x` },
      payload: sampleCaseBody(),
    });
    assert.equal(wrong.statusCode, 403);
    const cases = await app.inject({ method: 'GET', url: '/v1/cases', headers: { cookie: h.cookie } });
    assert.equal(cases.statusCode, 200);
    assert.equal(cases.json().data.length, 0);

    // the key header wins over the cookie: the other workspace, and no CSRF needed
    const withKey = await app.inject({
      method: 'POST',
      url: '/v1/cases',
      headers: { cookie: h.cookie, 'x-service-api-key': other.key },
      payload: sampleCaseBody(),
    });
    assert.equal(withKey.statusCode, 201);
    assert.equal((await other.get(`/v1/cases/${withKey.json().id}`)).status, 200);
    assert.equal(
      (await app.inject({ method: 'GET', url: `/v1/cases/${withKey.json().id}`, headers: h })).statusCode,
      404,
    );
  });

  test('logout revokes the session and clears the cookie; expired, idle and revoked sessions are 401', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('expiry');
    const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
    const ping = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/v1/ping', headers });

    const a = await signInHeaders(app, user.email, user.password);
    const noCsrf = await app.inject({
      method: 'POST',
      url: '/console/api/logout',
      headers: { cookie: a.cookie },
    });
    assert.equal(noCsrf.statusCode, 403);
    const out = await app.inject({ method: 'POST', url: '/console/api/logout', headers: a });
    assert.equal(out.statusCode, 204);
    assert.match(String(out.headers['set-cookie']), /^vericase_session=;.*Max-Age=0/);
    assert.equal((await ping(a)).statusCode, 401);
    assert.match((await ping(a)).json().message, /Session expired or revoked/);
    assert.equal(
      (await app.inject({ method: 'GET', url: '/console/api/session', headers: a })).statusCode,
      401,
    );
    // no cookie at all: nobody signed in from this browser, 204 without a body (no 401 on the
    // console's first load); a cookie naming no live session stays the 401 above
    const none = await app.inject({ method: 'GET', url: '/console/api/session' });
    assert.equal(none.statusCode, 204);
    assert.equal(none.body, '');
    const bogus = await app.inject({
      method: 'GET',
      url: '/console/api/session',
      headers: { cookie: 'vericase_session=not-a-session' },
    });
    assert.equal(bogus.statusCode, 401);

    const b = await signInHeaders(app, user.email, user.password);
    assert.equal((await ping(b)).statusCode, 200);
    const bHash = hashSessionToken(b.cookie.slice('vericase_session='.length));
    await ctx.db
      .updateTable('console_sessions')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', bHash)
      .execute();
    assert.equal((await ping(b)).statusCode, 401);

    const c = await signInHeaders(app, user.email, user.password);
    const cHash = hashSessionToken(c.cookie.slice('vericase_session='.length));
    // idle for 59 minutes: still alive, and the request counts as activity
    await ctx.db
      .updateTable('console_sessions')
      .set({ last_seen_at: new Date(Date.now() - 59 * 60_000) })
      .where('token_hash', '=', cHash)
      .execute();
    assert.equal((await ping(c)).statusCode, 200);
    const seen = await ctx.db
      .selectFrom('console_sessions')
      .select('last_seen_at')
      .where('token_hash', '=', cHash)
      .executeTakeFirstOrThrow();
    assert.ok(Date.now() - new Date(seen.last_seen_at).getTime() < 60_000);
    // idle for 61 minutes: gone
    await ctx.db
      .updateTable('console_sessions')
      .set({ last_seen_at: new Date(Date.now() - 61 * 60_000) })
      .where('token_hash', '=', cHash)
      .execute();
    assert.equal((await ping(c)).statusCode, 401);

    // sessions over for more than a week are dropped at the user's next sign-in; recent ones stay
    await ctx.db
      .updateTable('console_sessions')
      .set({ expires_at: new Date(Date.now() - 8 * 86_400_000) })
      .where('token_hash', '=', bHash)
      .execute();
    await signInHeaders(app, user.email, user.password);
    const left = await ctx.db
      .selectFrom('console_sessions')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .execute();
    assert.equal(left.length, 3);
    assert.ok(!left.some((r) => r.token_hash === bHash));
    assert.ok(left.some((r) => r.token_hash === cHash));

    // a made-up cookie
    assert.equal((await ping({ cookie: 'vericase_session=nope' })).statusCode, 401);
  });

  test('failed sign-ins are limited per e-mail and per IP (429 with Retry-After, before the password is checked)', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('limits');
    const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
    const from = (remoteAddress: string, body: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/console/api/login', payload: body, remoteAddress });
    // per e-mail (10 by default), from ever-changing addresses
    for (let i = 0; i < 10; i++) {
      const res = await from(`10.1.0.${i + 1}`, { email: user.email, password: `wrong-password-${i}` });
      assert.equal(res.statusCode, 401, `attempt ${i + 1}`);
    }
    const blocked = await from('10.1.0.50', { email: user.email.toUpperCase(), password: user.password });
    assert.equal(blocked.statusCode, 429);
    assert.match(blocked.json().message, /Too many failed sign-ins/);
    const retry = Number(blocked.headers['retry-after']);
    assert.ok(retry > 0 && retry <= 900, `retry-after ${retry}`);
    const reasons = await ctx.db
      .selectFrom('audit_log')
      .select((eb) => [eb.ref('details', '->>').key('reason').as('reason'), eb.fn.countAll<string>().as('n')])
      .where('workspace_id', '=', ws.workspaceId)
      .where('action', '=', 'console.login_failed')
      .groupBy('reason')
      .orderBy('reason')
      .execute();
    assert.deepEqual(
      reasons.map((r) => [r.reason, Number(r.n)]),
      [
        ['rate_limited', 1],
        ['wrong_password', 10],
      ],
    );
    // another e-mail from a fresh address is not affected
    const other = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
    assert.equal((await from('10.1.0.51', { email: other.email, password: other.password })).statusCode, 200);

    // per IP, on an app with a limit of 3 failures per address
    const strict = await buildApp({
      ...ctx,
      config: { ...ctx.config, console: { ...ctx.config.console, loginMaxFailuresPerIp: 3 } },
    });
    try {
      for (let i = 0; i < 3; i++) {
        const res = await strict.inject({
          method: 'POST',
          url: '/console/api/login',
          payload: { email: `guess-${i}@example.test`, password: 'password-guess' },
          remoteAddress: '10.2.0.1',
        });
        assert.equal(res.statusCode, 401);
      }
      const ipBlocked = await strict.inject({
        method: 'POST',
        url: '/console/api/login',
        payload: { email: other.email, password: other.password },
        remoteAddress: '10.2.0.1',
      });
      assert.equal(ipBlocked.statusCode, 429);
      const elsewhere = await strict.inject({
        method: 'POST',
        url: '/console/api/login',
        payload: { email: other.email, password: other.password },
        remoteAddress: '10.2.0.2',
      });
      assert.equal(elsewhere.statusCode, 200);
    } finally {
      await strict.close();
    }
  });

  test('the cookie is Secure over https behind a trusted proxy, not when the proxy is not trusted', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('tls');
    const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
    const proxied = await buildApp({ ...ctx, config: { ...ctx.config, trustProxy: true } });
    try {
      const res = await proxied.inject({
        method: 'POST',
        url: '/console/api/login',
        payload: { email: user.email, password: user.password },
        headers: { 'x-forwarded-proto': 'https' },
      });
      assert.equal(res.statusCode, 200);
      assert.match(sessionCookie(res.headers['set-cookie']), /; Secure(;|$)/);
    } finally {
      await proxied.close();
    }
    const untrusted = await app.inject({
      method: 'POST',
      url: '/console/api/login',
      payload: { email: user.email, password: user.password },
      headers: { 'x-forwarded-proto': 'https' },
    });
    assert.doesNotMatch(sessionCookie(untrusted.headers['set-cookie']), /Secure/);
  });

  test('changing the password needs the current one, keeps this session and ends the others', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('password');
    const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'reviewer' });
    const here = await signInHeaders(app, user.email, user.password);
    const there = await signInHeaders(app, user.email, user.password);
    const change = (headers: Record<string, string>, payload: Record<string, unknown>) =>
      app.inject({ method: 'POST', url: '/console/api/password', headers, payload });

    const wrong = await change(here, { current_password: 'not-it-at-all', new_password: 'a-new-password-1' });
    assert.equal(wrong.statusCode, 400);
    assert.equal(wrong.json().details[0].path, 'current_password');
    const short = await change(here, { current_password: user.password, new_password: 'short' });
    assert.equal(short.statusCode, 400);
    assert.equal(short.json().details[0].path, 'new_password');
    // ten spaces, and the current password again: refused, naming new_password
    for (const new_password of ['          ', user.password]) {
      const same = await change(here, { current_password: user.password, new_password });
      assert.equal(same.statusCode, 400, JSON.stringify(new_password));
      assert.equal(same.json().details[0].path, 'new_password');
    }
    assert.match(
      (await change(here, { current_password: user.password, new_password: user.password })).json().message,
      /must differ from the current password/,
    );
    assert.equal(
      (
        await change(
          { cookie: here.cookie },
          { current_password: user.password, new_password: 'a-new-password-1' },
        )
      ).statusCode,
      403,
    );
    const ok = await change(here, { current_password: user.password, new_password: 'a-new-password-1' });
    assert.equal(ok.statusCode, 204, ok.body);

    const ping = (headers: Record<string, string>) => app.inject({ method: 'GET', url: '/v1/ping', headers });
    assert.equal((await ping(here)).statusCode, 200);
    assert.equal((await ping(there)).statusCode, 401);
    assert.equal((await login({ email: user.email, password: user.password })).statusCode, 401);
    assert.equal((await login({ email: user.email, password: 'a-new-password-1' })).statusCode, 200);
    const row = await ctx.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.ok(row.password_changed_at);
    assert.ok(!(row.password_hash ?? '').includes('a-new-password-1'));
  });

  test('wrong current passwords are limited like failed sign-ins of that e-mail (429 with Retry-After)', async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('password-limit');
    const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
    const headers = await signInHeaders(app, user.email, user.password);
    const change = (current_password: string) =>
      app.inject({
        method: 'POST',
        url: '/console/api/password',
        headers,
        payload: { current_password, new_password: 'a-new-password-1' },
      });
    const hashOf = async () =>
      (
        await ctx.db
          .selectFrom('users')
          .select('password_hash')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow()
      ).password_hash;
    const hash = await hashOf();
    for (let i = 0; i < 10; i++)
      assert.equal((await change(`wrong-password-${i}`)).statusCode, 400, `attempt ${i + 1}`);
    const blocked = await change(user.password);
    assert.equal(blocked.statusCode, 429);
    assert.match(blocked.json().message, /Too many wrong passwords/);
    assert.ok(Number(blocked.headers['retry-after']) > 0);
    assert.equal(await hashOf(), hash, 'the password did not change');
    assert.equal(
      (await login({ email: user.email, password: 'a-new-password-1' })).statusCode,
      429,
      'the e-mail is blocked for sign-ins too while the window lasts',
    );
  });

  test("sign-ins, refused sign-ins, sign-outs and password changes are in the audit log of the user's workspace", async () => {
    const { app, ctx } = await getHarness();
    const ws = await newWorkspace('audit');
    const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'reviewer' });
    const ua = { 'user-agent': 'audit-test/1.0' };
    const wrong = await app.inject({
      method: 'POST',
      url: '/console/api/login',
      payload: { email: user.email, password: 'wrong-password-0' },
      headers: ua,
      remoteAddress: '10.3.0.1',
    });
    assert.equal(wrong.statusCode, 401);
    const ok = await app.inject({
      method: 'POST',
      url: '/console/api/login',
      payload: { email: user.email, password: user.password },
      headers: ua,
      remoteAddress: '10.3.0.1',
    });
    assert.equal(ok.statusCode, 200);
    const h = {
      cookie: sessionCookie(ok.headers['set-cookie']).split(';')[0],
      'x-csrf-token': ok.json().csrf_token,
      ...ua,
    };
    const guessed = await app.inject({
      method: 'POST',
      url: '/console/api/password',
      headers: h,
      payload: { current_password: 'nope-nope-nope', new_password: 'another-password-2' },
    });
    assert.equal(guessed.statusCode, 400);
    const changed = await app.inject({
      method: 'POST',
      url: '/console/api/password',
      headers: h,
      payload: { current_password: user.password, new_password: 'another-password-2' },
    });
    assert.equal(changed.statusCode, 204);
    const noCsrf = await app.inject({
      method: 'POST',
      url: '/console/api/logout',
      headers: { cookie: h.cookie, ...ua },
    });
    assert.equal(noCsrf.statusCode, 403);
    assert.equal(
      (await app.inject({ method: 'POST', url: '/console/api/logout', headers: h })).statusCode,
      204,
    );

    const rows = await ctx.db
      .selectFrom('audit_log')
      .selectAll()
      .where('workspace_id', '=', ws.workspaceId)
      .where('action', 'like', 'console.%')
      .orderBy('occurred_at')
      .orderBy('action')
      .execute();
    const session = await ctx.db
      .selectFrom('console_sessions')
      .select('id')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      rows.map((r) => [r.action, r.status_code, r.details]),
      [
        ['console.login_failed', 401, { reason: 'wrong_password' }],
        ['console.login', 200, { session_id: session.id }],
        ['console.password_change', 400, { session_id: session.id, reason: 'wrong_password' }],
        ['console.password_change', 204, { session_id: session.id }],
        ['console.logout', 403, { session_id: session.id, reason: 'csrf' }],
        ['console.logout', 204, { session_id: session.id }],
      ],
    );
    for (const r of rows) {
      assert.equal(r.actor_type, 'user');
      assert.equal(r.actor_id, user.id);
      assert.equal(r.actor_label, user.email);
      assert.equal(r.resource_type, 'user');
      assert.equal(r.resource_id, user.id);
      assert.equal(r.user_agent, 'audit-test/1.0');
      assert.equal(r.method, 'POST');
      assert.match(r.route ?? '', /^\/console\/api\/(login|password|logout)$/);
      assert.ok(r.request_id);
    }
    assert.equal(rows[0].ip, '10.3.0.1');
    // nothing of the password in the log
    assert.ok(!JSON.stringify(rows).includes('wrong-password-0'));
    assert.ok(!JSON.stringify(rows).includes('nope-nope-nope'));
    assert.ok(!JSON.stringify(rows).includes('another-password-2'));
  });
});
