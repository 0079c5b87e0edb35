import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runFuzz } from './helpers/fuzzer.ts';
import { getHarness } from './helpers/harness.ts';

/**
 * A short, deterministic run of the fuzz drill (`npm run drill -- fuzz` does 50,000 requests):
 * generated valid and hostile bodies, query strings, path ids and headers on every operation of
 * the served OpenAPI document. Every answer must be below 500, documented for its operation and
 * match the documented schema; afterwards every read endpoint answers 200 in every workspace.
 */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1_000);
const SEEDS = (process.env.FUZZ_SEEDS ?? '20261123,7').split(',').map(Number);

describe('fuzz', { timeout: 400_000 }, () => {
  // two runs with different seeds; about 15 s each on an idle machine, the timeout leaves room for
  // a machine shared with other work
  for (const SEED of SEEDS)
    test(`seed ${SEED}: ${REQUESTS} generated requests, no 5xx, every answer as documented, reads intact`, {
      timeout: 180_000,
    }, async () => {
      const { app, ctx, config } = await getHarness();
      const report = await runFuzz({
        app,
        ctx,
        requests: REQUESTS,
        seed: SEED,
        concurrency: 1,
        adminToken: config.adminToken,
        requestsPerWorkspace: REQUESTS,
      });
      const show = (v: unknown) => JSON.stringify(v, null, 2).slice(0, 20_000);
      assert.ok(report.requests >= REQUESTS, `only ${report.requests} requests`);
      assert.equal(report.operationsCovered, report.operations, 'every operation exercised');
      assert.equal(report.serverErrors, 0, show(report.findings.filter((f) => f.status >= 500)));
      assert.equal(report.mismatches, 0, show(report.findings.filter((f) => f.status < 500)));
      assert.ok(report.sweep.requests > 20, `only ${report.sweep.requests} reads after the run`);
      assert.deepEqual(report.sweep.failures, []);
      // the run must have reached the resources, not only their 404s and 400s
      for (const status of [200, 201, 204, 400, 404])
        assert.ok((report.statuses[status] ?? 0) > 0, `no ${status} in ${show(report.statuses)}`);
    });
});
