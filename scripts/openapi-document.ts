/**
 * The OpenAPI document exactly as the service serves it (without the request's `servers`), from an
 * app built on a throw-away embedded database. `node scripts/openapi-document.ts FILE` writes it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export async function buildServedDocument(): Promise<Record<string, unknown>> {
  const { default: pino } = await import('pino');
  const { loadConfig } = await import('../src/config.ts');
  const { openRuntime } = await import('../src/runtime.ts');
  const { buildApp } = await import('../src/http/app.ts');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-openapi-doc-'));
  try {
    const config = loadConfig({
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: dir,
      VERICASE_RUN_WORKERS: 'false',
      VERICASE_SCREENING_WATCH_SECONDS: '0',
    });
    const runtime = await openRuntime(config, pino({ level: 'silent' }));
    try {
      const app = await buildApp(runtime.ctx);
      try {
        await app.ready();
        return JSON.parse(JSON.stringify(app.swagger()));
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

if (import.meta.main) {
  const out = process.argv[2];
  const text = `${JSON.stringify(await buildServedDocument(), null, 2)}\n`;
  if (out) fs.writeFileSync(out, text);
  else process.stdout.write(text);
}
