import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import type { App } from '../src/app-context.ts';
import { buildApp } from '../src/http/app.ts';
import { createConsoleUser } from './helpers/console-session.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

/**
 * With VERICASE_REDIS_URL the failed sign-in counts are shared by every API process. Needs a Redis
 * server (TEST_REDIS_URL, default redis://127.0.0.1:6379), like test/rate-limit-redis.test.ts.
 */
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function login(app: App, body: Record<string, string>, remoteAddress: string) {
  return app.inject({ method: 'POST', url: '/console/api/login', payload: body, remoteAddress });
}

/** An address of its own per run, so counts left in a shared Redis by an earlier run do not count. */
function freshIp(): string {
  const n = () => Math.floor(Math.random() * 250) + 1;
  return `10.${n()}.${n()}.${n()}`;
}

describe('sign-in limit across API processes', () => {
  test('two processes on one Redis count the same e-mail and IP together', async (t) => {
    if (!(await reachable(redisUrl))) {
      assert.notEqual(process.env.CI, 'true', `CI needs Redis at ${redisUrl}`);
      t.diagnostic(`Redis unreachable at ${redisUrl}: only the in-memory limiter was exercised`);
      return;
    }
    const { ctx } = await getHarness();
    const ws = await newWorkspace('redis-login');
    const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
    const config = {
      ...ctx.config,
      redisUrl,
      console: { ...ctx.config.console, loginMaxFailuresPerEmail: 4, loginMaxFailuresPerIp: 6 },
    };
    const one = await buildApp({ ...ctx, config });
    const two = await buildApp({ ...ctx, config });
    try {
      // per e-mail: two failures on each process make four
      for (const app of [one, two, one, two]) {
        assert.equal(
          (await login(app, { email: user.email, password: 'wrong-password' }, freshIp())).statusCode,
          401,
        );
      }
      const blocked = await login(two, { email: user.email, password: user.password }, freshIp());
      assert.equal(blocked.statusCode, 429);
      const retry = Number(blocked.headers['retry-after']);
      assert.ok(retry > 0 && retry <= 900, `retry-after ${retry}`);
      assert.equal(
        (await login(one, { email: user.email, password: user.password }, freshIp())).statusCode,
        429,
      );

      // per IP: six failures on other e-mails from one address, shared too
      const ip = freshIp();
      for (let i = 0; i < 6; i++) {
        const app = i % 2 ? one : two;
        assert.equal(
          (await login(app, { email: `nobody-${i}-${ip}@example.test`, password: 'guess-password' }, ip))
            .statusCode,
          401,
        );
      }
      const other = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
      assert.equal((await login(one, { email: other.email, password: other.password }, ip)).statusCode, 429);
      // a success does not clear the e-mail's count: a user of another workspace with the same
      // address could reset it with their own password between guesses
      const third = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
      const twin = await newWorkspace('redis-login-twin');
      await createConsoleUser(ctx, twin.workspaceId, {
        role: 'viewer',
        email: third.email,
        password: 'twin-password-123',
      });
      for (const app of [one, two, one]) {
        await login(app, { email: third.email, password: 'wrong-password' }, freshIp());
      }
      const twinIn = await login(
        two,
        { email: third.email, password: 'twin-password-123', workspace: twin.workspaceId },
        freshIp(),
      );
      assert.equal(twinIn.statusCode, 200, twinIn.body);
      assert.equal(
        (await login(one, { email: third.email, password: 'wrong-password' }, freshIp())).statusCode,
        401,
      );
      assert.equal(
        (await login(two, { email: third.email, password: third.password }, freshIp())).statusCode,
        429,
      );
    } finally {
      await one.close();
      await two.close();
    }
  });

  test('an unreachable Redis falls back to the process’s own counts, never to no limit', async () => {
    const { ctx } = await getHarness();
    const ws = await newWorkspace('redis-down');
    const user = await createConsoleUser(ctx, ws.workspaceId, { role: 'viewer' });
    // nothing listens on this port (one of this suite's own)
    const app = await buildApp({
      ...ctx,
      config: {
        ...ctx.config,
        redisUrl: 'redis://127.0.0.1:3119',
        console: { ...ctx.config.console, loginMaxFailuresPerEmail: 3 },
      },
    });
    try {
      for (let i = 0; i < 3; i++) {
        assert.equal(
          (await login(app, { email: user.email, password: 'wrong-password' }, freshIp())).statusCode,
          401,
        );
      }
      assert.equal(
        (await login(app, { email: user.email, password: user.password }, freshIp())).statusCode,
        429,
      );
    } finally {
      await app.close();
    }
  });
});
