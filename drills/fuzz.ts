/**
 * `npm run drill -- fuzz [--requests N] [--seed S] [--concurrency C] [--database URL] [--reset]
 * [--findings FILE] [--server-log FILE]`: hostile and valid input on every operation of the served
 * OpenAPI document. Findings are appended to FILE as JSON lines as they are found; the app's error
 * log (the cause of any 5xx) goes to --server-log.
 *
 * Runs the app in-process (app.inject: no sockets, so the figures measure the service, not the
 * loopback) on a fresh database: PGlite in a temporary DATA_DIR, or PostgreSQL with --database /
 * DATABASE_URL. Promises: no 5xx, every answer documented for its operation and matching its
 * schema, and afterwards every read endpoint answers 200 for every workspace the fuzz touched.
 * The generator is in test/helpers/fuzzer.ts (shared with test/fuzz.test.ts).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { openRuntime } from '../src/runtime.ts';
import { runFuzz } from '../test/helpers/fuzzer.ts';
import { SHARED_DATA_DIR } from '../test/helpers/harness.ts';
import { ADMIN_TOKEN, DRILL_SERVER_ENV, drillDatabase, printTable, redact, Verdicts } from './_lib.ts';

export async function run(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      requests: { type: 'string', default: '50000' },
      seed: { type: 'string', default: '1' },
      concurrency: { type: 'string', default: '4' },
      database: { type: 'string' },
      reset: { type: 'boolean', default: false },
      findings: { type: 'string' },
      'server-log': { type: 'string' },
    },
  });
  const requests = Number(values.requests);
  const seed = Number(values.seed);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(requests) || requests < 1 || !Number.isInteger(seed) || !(concurrency >= 1)) {
    process.stderr.write('--requests, --seed and --concurrency take positive integers\n');
    return 2;
  }
  const db = await drillDatabase({ database: values.database, reset: values.reset });
  const config = loadConfig({
    ...process.env,
    ...DRILL_SERVER_ENV,
    ...db.env,
    VERICASE_REFERENCE_DIR: process.env.VERICASE_REFERENCE_DIR || SHARED_DATA_DIR,
  });
  const runtime = await openRuntime(config, pino({ level: 'silent' }));
  const serverLog = values['server-log'];
  const app = await buildApp(
    runtime.ctx,
    serverLog ? { logger: pino({ level: 'error' }, pino.destination({ dest: serverLog, sync: true })) } : {},
  );
  await app.ready();
  process.stdout.write(
    `fuzz: ${requests} requests, seed ${seed}, concurrency ${concurrency}, on ${db.kind === 'postgres' ? redact(db.databaseUrl ?? '') : 'PGlite'}\n`,
  );
  const started = Date.now();
  try {
    const report = await runFuzz({
      app,
      ctx: runtime.ctx,
      requests,
      seed,
      concurrency,
      adminToken: ADMIN_TOKEN,
      onFinding: (f) => {
        if (values.findings) fs.appendFileSync(values.findings, `${JSON.stringify(f)}\n`);
        process.stdout.write(`  finding: ${f.operation} → ${f.status}: ${f.problem.slice(0, 200)}\n`);
      },
      onProgress: (n) =>
        process.stdout.write(`  ${n} requests, ${((Date.now() - started) / 1000).toFixed(0)} s\n`),
    });
    printTable(
      'statuses',
      Object.entries(report.statuses).map(([status, count]) => ({ status, count })),
    );
    const verdicts = new Verdicts();
    verdicts.check(`at least ${requests} requests`, report.requests >= requests, report.requests);
    verdicts.check(
      'every operation of the OpenAPI document exercised',
      report.operationsCovered === report.operations,
      `${report.operationsCovered}/${report.operations}`,
    );
    verdicts.check('no 5xx', report.serverErrors === 0, report.serverErrors);
    verdicts.check(
      'every answer documented and matching its schema',
      report.mismatches === 0,
      report.mismatches,
    );
    verdicts.check(
      `every read answers 200 afterwards (${report.workspaces} workspaces)`,
      report.sweep.failures.length === 0,
      `${report.sweep.requests - report.sweep.failures.length}/${report.sweep.requests}`,
    );
    process.stdout.write(`\n${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s\n`);
    return verdicts.finish('fuzz');
  } finally {
    await app.close();
    await runtime.close();
    db.cleanup();
  }
}
