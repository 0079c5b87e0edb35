/**
 * Lints the service's OpenAPI document with Redocly CLI and the rules in redocly.yaml
 * (`npm run openapi:lint`; test/openapi-lint.test.ts runs it in the suite). Exits with the linter's
 * code: 0 when there is no error. Warnings are printed and justified in docs/openapi.md.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServedDocument } from './openapi-document.ts';

const root = path.resolve(import.meta.dirname, '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-openapi-'));
const file = path.join(dir, 'openapi.json');
try {
  fs.writeFileSync(file, JSON.stringify(await buildServedDocument(), null, 1));
  const format = process.argv.includes('--json') ? 'json' : 'stylish';
  const res = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules/@redocly/cli/bin/cli.js'),
      'lint',
      file,
      '--config',
      path.join(root, 'redocly.yaml'),
      `--format=${format}`,
    ],
    {
      stdio: 'inherit',
      // no telemetry, no update check: nothing leaves this machine
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
    },
  );
  process.exitCode = res.status ?? 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
