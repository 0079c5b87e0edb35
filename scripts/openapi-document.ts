/**
 * The OpenAPI document exactly as the service serves it (without the request's `servers`), from an
 * app built on a throw-away embedded database. `node scripts/openapi-document.ts FILE` writes it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { App, AppContext } from '../src/app-context.ts';

/**
 * Runs `fn` with an app built on a throw-away embedded database (no workers, no list watching),
 * `env` added to the process's; removes everything afterwards. For the scripts that read the
 * service itself: its OpenAPI document, its captured examples, the compatibility report.
 */
export async function withThrowawayApp<T>(
  env: NodeJS.ProcessEnv,
  fn: (app: App, ctx: AppContext) => Promise<T>,
): Promise<T> {
  const { default: pino } = await import('pino');
  const { loadConfig } = await import('../src/config.ts');
  const { openRuntime } = await import('../src/runtime.ts');
  const { buildApp } = await import('../src/http/app.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-throwaway-'));
  try {
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dir,
      VERICASE_RUN_WORKERS: 'false',
      VERICASE_SCREENING_WATCH_SECONDS: '0',
      ...env,
    });
    const runtime = await openRuntime(config, pino({ level: 'silent' }));
    try {
      const app = await buildApp(runtime.ctx);
      try {
        return await fn(app, runtime.ctx);
      } finally {
        await app.close();
      }
    } finally {
      await runtime.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function buildServedDocument(): Promise<Record<string, unknown>> {
  return withThrowawayApp({}, async (app) => {
    await app.ready();
    return JSON.parse(JSON.stringify(app.swagger()));
  });
}

if (import.meta.main) {
  const out = process.argv[2];
  const text = `${JSON.stringify(await buildServedDocument(), null, 2)}\n`;
  if (out) fs.writeFileSync(out, text);
  else process.stdout.write(text);
}
