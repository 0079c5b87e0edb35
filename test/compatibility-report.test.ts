import assert from 'node:assert/strict';
import fs from 'node:fs';
import { test } from 'node:test';
import { reportCounts, syncGuideCounts } from '../scripts/compatibility-guide-counts.ts';
import {
  GUIDE_PATH,
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

test("docs/compatibility.md quotes the report's counts", async () => {
  const report = fs.readFileSync(REPORT_PATH, 'utf8');
  const guide = fs.readFileSync(GUIDE_PATH, 'utf8');
  const c = reportCounts(report);
  assert.ok(
    syncGuideCounts(guide, c) === guide,
    'docs/compatibility.md quotes other counts than the report: run `npm run compat:report`',
  );
  assert.ok(
    guide.includes(`${c.supported} supported, ${c.withDifference} supported with a difference`),
    'the guide quotes the supported counts',
  );
  // a changed count is caught: the guide is rewritten
  assert.notEqual(syncGuideCounts(guide, { ...c, supported: c.supported + 1 }), guide);
});

test("a check type's other spelling: the report names the path our document lists, not an added operation", async () => {
  const report = fs.readFileSync(REPORT_PATH, 'utf8');
  assert.match(
    report,
    /\| POST \/v1\/checks\/fraud-database \| POST \/v1\/checks\/fraud_database \| supported with a difference \| answered at the reference's path too/,
  );
  assert.match(
    report,
    /\| GET \/v1\/checks\/fraud-database\/\{id\} \| GET \/v1\/checks\/fraud_database\/\{id\} \| supported \|/,
  );
  const added = report.split('### Operations ours adds')[1]!.split('## Resources')[0]!;
  assert.doesNotMatch(added, /checks\/fraud[_-]database/);
  // the document served lists the spec's spelling only (the other one answers too, hidden)
  const { app } = await getHarness();
  const paths = Object.keys((app.swagger() as { paths: Record<string, unknown> }).paths);
  assert.ok(paths.includes('/v1/checks/fraud_database'));
  assert.ok(!paths.includes('/v1/checks/fraud-database'));
});
