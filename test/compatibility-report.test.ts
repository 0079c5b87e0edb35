import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import {
  ourEventNames,
  REPORT_PATH,
  readReference,
  renderReport,
  withCheckPathAliases,
} from '../scripts/compatibility-report.ts';
import { getHarness } from './helpers/harness.ts';

// The shared test app serves the same OpenAPI document as the generator's throw-away app, so the
// report rendered from it must equal the committed one: a route or schema change without
// `npm run compat:report` fails here.
test('docs/compatibility-report.md is up to date (npm run compat:report)', async () => {
  const { app } = await getHarness();
  const report = renderReport({
    reference: readReference(),
    ours: await withCheckPathAliases(JSON.parse(JSON.stringify(app.swagger()))),
    ourEvents: await ourEventNames(),
  });
  const committed = fs.readFileSync(REPORT_PATH, 'utf8');
  assert.ok(
    committed === report,
    'docs/compatibility-report.md is stale: run `npm run compat:report` and commit it',
  );
  assert.match(report, /\| 100 \| \d+ \| \d+ \| \d+ \| \d+ \|/, 'the reference has 100 operations');
});
