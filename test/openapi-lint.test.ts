/**
 * The OpenAPI document passes Redocly's linter with the project's rules (redocly.yaml): no error, and
 * only the warnings docs/openapi.md lists and justifies (none today).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';

test('npm run openapi:lint: no error, no warning', () => {
  const root = path.resolve(import.meta.dirname, '..');
  const res = spawnSync(process.execPath, [path.join(root, 'scripts/openapi-lint.ts'), '--json'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, DATABASE_URL: '' },
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(res.status, 0, `${res.stdout.slice(-4000)}\n${res.stderr.slice(-2000)}`);
  const report = JSON.parse(res.stdout.slice(res.stdout.indexOf('{')));
  const problems = report.problems.map(
    (p: { ruleId: string; severity: string; message: string }) => `${p.severity} ${p.ruleId}: ${p.message}`,
  );
  assert.deepEqual(problems, []);
  assert.equal(report.totals.errors, 0);
});
