import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import pino from 'pino';
import { buildApp } from '../src/http/app.ts';
import { clientFor, getHarness, newWorkspace } from './helpers/harness.ts';
import { relayTo } from './helpers/tcp-relay.ts';

/**
 * With VERICASE_REDIS_URL the per-key rate limit is shared by every API process. Needs a Redis
 * server (TEST_REDIS_URL, default redis://127.0.0.1:6379: CI has one).
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

describe('rate limit shared through Redis', () => {
  test('two API processes count the same key together', async (t) => {
    if (!(await reachable(redisUrl))) {
      assert.notEqual(process.env.CI, 'true', `CI needs Redis at ${redisUrl}`);
      t.diagnostic(`Redis unreachable at ${redisUrl}: only the in-memory limiter was exercised`);
      return;
    }
    const { ctx } = await getHarness();
    const config = { ...ctx.config, rateLimitPerMinute: 3, redisUrl };
    const a = await buildApp({ ...ctx, config });
    const b = await buildApp({ ...ctx, config });
    await Promise.all([a.ready(), b.ready()]);
    // until each process counts in Redis (a fresh key's request leaves a key there): before its
    // connection is ready a process counts on its own, and a fixed 300 ms was not always enough on
    // a loaded machine
    const direct = new Redis(redisUrl);
    try {
      for (const app of [a, b]) {
        // the fresh workspace's own key (ws:<id>): the suite's other run may count in the same Redis
        const countsInRedis = async () => {
          const fresh = await newWorkspace();
          await clientFor(app, fresh.key, fresh.workspaceId).get('/v1/ping');
          return (await direct.keys(`vericase-rl-*${fresh.workspaceId}*`)).length > 0;
        };
        assert.ok(await waitFor(countsInRedis), 'the rate limit reached Redis');
      }
    } finally {
      direct.disconnect();
    }
    const ws = await newWorkspace();
    const viaA = clientFor(a, ws.key, ws.workspaceId);
    const viaB = clientFor(b, ws.key, ws.workspaceId);
    assert.equal((await viaA.get('/v1/ping')).status, 200);
    assert.equal((await viaB.get('/v1/ping')).status, 200);
    assert.equal((await viaA.get('/v1/ping')).status, 200);
    const fourth = await viaB.get('/v1/ping');
    assert.equal(fourth.status, 429, 'the fourth request, on the other process, is over the shared limit');
    assert.equal(fourth.body.code, 'TOO_MANY_REQUESTS');
    await a.close();
    await b.close();
  });

  test('Redis unreachable: each process counts on its own meanwhile (never no limit), then the shared count again', async (t) => {
    if (!(await reachable(redisUrl))) {
      assert.notEqual(process.env.CI, 'true', `CI needs Redis at ${redisUrl}`);
      t.diagnostic(`Redis unreachable at ${redisUrl}: the outage was not exercised`);
      return;
    }
    const { relay, url: relayed } = await relayTo(redisUrl, 6379);
    t.after(() => relay.down());
    const { ctx } = await getHarness();
    const warnings: string[] = [];
    const app = await buildApp(
      { ...ctx, config: { ...ctx.config, rateLimitPerMinute: 3, redisUrl: relayed } },
      {
        logger: pino(
          { level: 'warn' },
          { write: (line: string) => void warnings.push(JSON.parse(line).msg) },
        ),
      },
    );
    t.after(() => app.close());
    await app.ready();
    const statuses = async (key: { key: string; workspaceId: string }, n: number) => {
      const api = clientFor(app, key.key, key.workspaceId);
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push((await api.get('/v1/ping')).status);
      return out;
    };
    // counted in Redis once the app's connection is ready (until then, in the process): a request of
    // a new key leaves a new key in Redis
    const direct = new Redis(redisUrl);
    t.after(() => direct.disconnect());
    const sharedNow = async () => {
      const known = new Set(await direct.keys('vericase-rl-*'));
      await statuses(await newWorkspace(), 1);
      return (await direct.keys('vericase-rl-*')).some((k) => !known.has(k));
    };
    assert.ok(await waitFor(sharedNow), 'the rate limit reached Redis');
    const before = await newWorkspace();
    assert.deepEqual(await statuses(before, 4), [200, 200, 200, 429]);

    // the outage: this process counts alone, with the same limit, and says so once
    await relay.down();
    const during = await newWorkspace();
    assert.deepEqual(await statuses(during, 4), [200, 200, 200, 429]);
    // (the console's sign-in limiter shares the Redis address and may say so too, when it notices)
    assert.deepEqual(
      warnings.filter((m) => m.startsWith('rate limit (') && m.includes('Redis unreachable')),
      ['rate limit (vericase-rl-): Redis unreachable, counting in this process meanwhile'],
    );

    // back: the counts are Redis's again (the first key's count is still there)
    await relay.up();
    assert.ok(
      await waitFor(async () => (await statuses(before, 1))[0] === 429),
      'the shared count is used again once Redis answers',
    );
    const afterKey = await newWorkspace();
    assert.deepEqual(await statuses(afterKey, 4), [200, 200, 200, 429]);
  });
});

/** Polls `check` every 100 ms for up to 10 s. */
async function waitFor(check: () => Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}
