import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, test } from 'node:test';
import { buildApp } from '../src/http/app.ts';
import { clientFor, getHarness, newWorkspace } from './helpers/harness.ts';

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
    await new Promise((r) => setTimeout(r, 300)); // let both connect
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
});
