import type { TestContext } from 'node:test';
import { buildApp } from '../../src/http/app.ts';
import { SCREENSHOT_DIR, Screenshots } from './browser.ts';
import { getHarness } from './harness.ts';
import { listenOnLoopback } from './live-server.ts';
import { type MailCatcher, startMailCatcher } from './mail-catcher.ts';

/**
 * Per test of a browser walk that needs mail (the suite shares one process and one harness with
 * every other test file, so nothing here may outlive its test): a real SMTP catcher, the service on
 * a socket sending its mail there (config.mail.smtpUrl, what VERICASE_SMTP_URL sets), and the
 * screenshots' list. When the test ends, `beforeClose` runs (the test's browser), then the service
 * and the catcher close and the screenshots (`shots`, then `extra`) are listed.
 */
export async function mailingService(
  t: TestContext,
  run: string,
  beforeClose: () => Promise<void>,
): Promise<{ base: string; mail: MailCatcher; shots: Screenshots; extra: string[] }> {
  const mail = await startMailCatcher();
  const { ctx } = await getHarness();
  const config = { ...ctx.config, mail: { ...ctx.config.mail, smtpUrl: mail.url } };
  const app = await buildApp({ ...ctx, config });
  const base = `http://127.0.0.1:${await listenOnLoopback(app, config)}`;
  const shots = new Screenshots(run);
  const extra: string[] = [];
  t.after(async () => {
    await beforeClose();
    await app.close();
    await mail.close();
    const files = [...shots.files, ...extra];
    console.log(`screenshots (${files.length}) in ${SCREENSHOT_DIR}:\n  ${files.join('\n  ')}`);
  });
  return { base, mail, shots, extra };
}
