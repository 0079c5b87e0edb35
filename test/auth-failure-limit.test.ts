import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildApp } from '../src/http/app.ts';
import { KeyResolver } from '../src/http/auth.ts';
import { AuthFailureLimit } from '../src/http/auth-failure-limit.ts';
import { createConsoleUser, signInHeaders } from './helpers/console-session.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';
import { portalCase, portalToken } from './helpers/portal.ts';

/** A key resolver that counts the lookups it is asked for (the database queries a key costs). */
class CountingResolver extends KeyResolver {
  lookups = 0;
  override resolve(key: string) {
    this.lookups++;
    return super.resolve(key);
  }
}

test('made-up credentials from one address: refused (429) before any lookup past the limit, a known key still served', async (t) => {
  const { ctx } = await getHarness();
  // keys cached for a minute, as in production (the harness caches nothing)
  const keys = new CountingResolver(ctx.db, 60_000);
  const app = await buildApp({ ...ctx, keys, config: { ...ctx.config, authFailuresPerMinute: 3 } });
  t.after(() => app.close());
  await app.ready();
  const ws = await newWorkspace('auth-failures');
  const call = (opts: { ip?: string; key?: string; cookie?: string; bearer?: string; url?: string }) =>
    app.inject({
      method: 'GET',
      url: opts.url ?? '/v1/ping',
      remoteAddress: opts.ip ?? '203.0.113.7',
      headers: {
        ...(opts.key ? { 'x-service-api-key': opts.key } : {}),
        ...(opts.cookie ? { cookie: opts.cookie } : {}),
        ...(opts.bearer ? { authorization: `Bearer ${opts.bearer}` } : {}),
      },
    });

  // the workspace's own key, known to this process from now on
  assert.equal((await call({ key: ws.key })).statusCode, 200);
  assert.equal(keys.lookups, 1);

  // three made-up keys: three lookups, three 401
  for (let i = 0; i < 3; i++) {
    const res = await call({ key: `vk_made_up_${i}` });
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(res.json().message, 'Invalid or revoked API key');
  }
  assert.equal(keys.lookups, 4);

  // the fourth: 429 with when to come back, and no lookup
  const refused = await call({ key: 'vk_made_up_3' });
  assert.equal(refused.statusCode, 429, refused.body);
  const wait = Number(refused.headers['retry-after']);
  assert.ok(wait >= 1 && wait <= 60, `retry-after ${wait}`);
  assert.match(
    refused.json().message,
    new RegExp(
      `^Too many requests from this address with API keys, sessions or portal links that match nothing \\(3 a minute\\): retry in ${wait} seconds$`,
    ),
  );
  assert.equal(keys.lookups, 4);
  // a session cookie that matches nothing: refused the same way from this address
  assert.equal((await call({ cookie: 'vericase_session=vcs_made_up' })).statusCode, 429);
  // the workspace's key, cached, is served as before
  assert.equal((await call({ key: ws.key })).statusCode, 200);
  // and once its cache entry is gone too: it was valid here lately, so it is looked up
  keys.clear();
  assert.equal((await call({ key: ws.key })).statusCode, 200);
  assert.equal(keys.lookups, 5);
  // another real key this process has never seen waits like a made-up one
  const other = await newWorkspace('auth-failures-other');
  assert.equal((await call({ key: other.key })).statusCode, 429);
  assert.equal(keys.lookups, 5);
  // no credential at all costs nothing and is the usual 401
  assert.equal((await call({})).statusCode, 401);

  // another address is not concerned: its made-up key is looked up and refused as unknown
  assert.equal((await call({ ip: '198.51.100.9', key: 'vk_made_up_4' })).statusCode, 401);
  assert.equal(keys.lookups, 6);
  assert.equal((await call({ ip: '198.51.100.9', cookie: 'vericase_session=vcs_made_up' })).statusCode, 401);

  // the portal's tokens count alike, and a real link still works from an address not over its limit
  const c = await portalCase(ws, 'Auth failures');
  const { token } = await portalToken(ws, c.caseId, c.contactId);
  const portal = { url: '/portal/api/session', ip: '192.0.2.44' };
  assert.equal((await call({ ...portal, bearer: token })).statusCode, 200);
  for (let i = 0; i < 3; i++) {
    const res = await call({ ...portal, bearer: `vcp_made_up_${i}` });
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(res.json().code, 'PORTAL_LINK_UNKNOWN');
  }
  const portalRefused = await call({ ...portal, bearer: 'vcp_made_up_3' });
  assert.equal(portalRefused.statusCode, 429, portalRefused.body);
  assert.ok(Number(portalRefused.headers['retry-after']) >= 1);
  // and the API key path shares the count of that address
  assert.equal((await call({ ip: portal.ip, key: 'vk_made_up_5' })).statusCode, 429);
  // the link that worked there lately still does
  assert.equal((await call({ ...portal, bearer: token })).statusCode, 200);

  // a console user signing in behind an address over its limit: the new session works at once
  const local = '127.0.0.1'; // the address inject signs in from
  for (let i = 0; i < 3; i++) await call({ ip: local, key: `vk_made_up_local_${i}` });
  assert.equal((await call({ ip: local, cookie: 'vericase_session=vcs_made_up' })).statusCode, 429);
  const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'reviewer' });
  const session = await signInHeaders(app, user.email, user.password);
  const asUser = await call({ ip: local, cookie: session.cookie });
  assert.equal(asUser.statusCode, 200, asUser.body);
  // the console's own session route counts alike
  assert.equal(
    (await call({ ip: local, url: '/console/api/session', cookie: session.cookie })).statusCode,
    200,
  );
  const bogus = await call({
    ip: local,
    url: '/console/api/session',
    cookie: 'vericase_session=vcs_made_up_2',
  });
  assert.equal(bogus.statusCode, 429, bogus.body);
  const elsewhere = '198.51.100.77';
  for (let i = 0; i < 3; i++) {
    const res = await call({
      ip: elsewhere,
      url: '/console/api/session',
      cookie: `vericase_session=vcs_${i}`,
    });
    assert.equal(res.statusCode, 401, res.body);
  }
  assert.equal((await call({ ip: elsewhere, key: 'vk_made_up_6' })).statusCode, 429);
});

test('the count is per minute: an address over its limit is served again once its minute has passed', () => {
  const limit = new AuthFailureLimit(2);
  const t0 = 1_000_000;
  const ip = '203.0.113.7';
  limit.failed(ip, t0);
  assert.equal(limit.refusal(ip, 'vk_new', t0 + 1), undefined);
  limit.failed(ip, t0 + 1_000);
  const refused = limit.refusal(ip, 'vk_new', t0 + 30_000);
  assert.equal(refused?.statusCode, 429);
  assert.equal(refused?.retryAfterSeconds, 30);
  assert.equal(limit.refusal(ip, 'vk_new', t0 + 60_000), undefined);
  // a new minute starts with the next failure
  limit.failed(ip, t0 + 60_000);
  assert.equal(limit.refusal(ip, 'vk_new', t0 + 60_001), undefined);
  // a credential seen valid within the hour is looked up even from a blocked address
  limit.failed(ip, t0 + 60_002);
  limit.vouch('vk_known', t0 + 60_003);
  assert.equal(limit.refusal(ip, 'vk_new', t0 + 60_004)?.statusCode, 429);
  assert.equal(limit.refusal(ip, 'vk_known', t0 + 60_004), undefined);
  limit.failed(ip, t0 + 3_700_000);
  limit.failed(ip, t0 + 3_700_001);
  assert.equal(limit.refusal(ip, 'vk_known', t0 + 3_700_002)?.statusCode, 429, 'vouched for an hour');
  // 0: no limit
  const off = new AuthFailureLimit(0);
  for (let i = 0; i < 10; i++) off.failed(ip, t0);
  assert.equal(off.refusal(ip, 'vk_new', t0), undefined);
});
