/**
 * The one headless Chromium of this process, used to print HTML to PDF. Started on first use (a
 * service that never renders never starts a browser), shared by every render (each render gets its
 * own throw-away browser context), started again when it died. The browser is the system's
 * (Debian's `chromium` package or Chrome): playwright-core only drives it and downloads nothing.
 */
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import type { AppContext } from '../app-context.ts';
import { ApiError } from '../http/errors.ts';
import { lazyImport } from '../shared/lazy-module.ts';

// playwright-core loads with the first render (src/shared/lazy-module.ts)
const loadPlaywright = lazyImport(() => import('playwright-core'));

/** Where a browser is looked for when VERICASE_CHROMIUM_PATH is not set, in this order. */
export const CHROMIUM_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

// no sandbox: the service often runs as root in a container, where Chromium's sandbox cannot start;
// what the page may do is walled off by the render itself (JavaScript off, every request refused)
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  '--disable-quic',
];

export const RENDER_FAILED = 'CASE_REPORT_RENDER_FAILED';

/** The browser path to use: the configured one, else the first candidate that exists, else null. */
export function chromiumPath(ctx: AppContext): string | null {
  if (ctx.config.chromiumPath) return ctx.config.chromiumPath;
  return CHROMIUM_CANDIDATES.find((p) => fs.existsSync(p)) ?? null;
}

/** 502: the renderer is missing or broken on this machine (retrying helps only once it is fixed). */
export function rendererUnavailable(detail: string): ApiError {
  return new ApiError(
    502,
    `The PDF renderer is unavailable: ${detail}. Install Chromium (Debian/Ubuntu: apt-get install -y chromium) ` +
      'or point VERICASE_CHROMIUM_PATH at a Chromium or Chrome executable.',
    undefined,
    RENDER_FAILED,
  );
}

// one launch per executable path (a test may point one app at a missing browser while another renders)
const browsers = new Map<string, Promise<Browser>>();

/** The running browser for this context's path, started if needed. */
export async function getBrowser(ctx: AppContext): Promise<Browser> {
  const exe = chromiumPath(ctx);
  if (!exe) throw rendererUnavailable(`no browser found at ${CHROMIUM_CANDIDATES.join(', ')}`);
  if (!fs.existsSync(exe)) throw rendererUnavailable(`no browser at ${exe} (VERICASE_CHROMIUM_PATH)`);
  let launching = browsers.get(exe);
  if (!launching) {
    launching = loadPlaywright()
      .then(({ chromium }) =>
        chromium.launch({ executablePath: exe, headless: true, args: FLAGS, timeout: 60_000 }),
      )
      .then(
        (browser) => {
          // a crashed or killed browser is forgotten: the next render starts a new one
          browser.on('disconnected', () => {
            if (browsers.get(exe) === launching) browsers.delete(exe);
          });
          return browser;
        },
        (err: unknown) => {
          browsers.delete(exe);
          throw rendererUnavailable(
            `${exe} did not start (${err instanceof Error ? err.message.split('\n')[0] : err})`,
          );
        },
      );
    browsers.set(exe, launching);
  }
  const browser = await launching;
  if (!browser.isConnected()) {
    if (browsers.get(exe) === launching) browsers.delete(exe);
    return getBrowser(ctx);
  }
  return browser;
}

/**
 * Forgets a browser that failed to open a page (killed, crashed, out of memory), so the next
 * getBrowser starts a new one even before its `disconnected` event arrived.
 */
export async function discardBrowser(ctx: AppContext, browser: Browser): Promise<void> {
  const exe = chromiumPath(ctx);
  const current = exe ? browsers.get(exe) : undefined;
  if (exe && current && (await current.catch(() => null)) === browser) browsers.delete(exe);
  await browser.close().catch(() => undefined);
}

/** Closes every browser this process started (service shutdown). */
export async function closeBrowsers(): Promise<void> {
  const all = [...browsers.values()];
  browsers.clear();
  await Promise.all(all.map(async (p) => (await p.catch(() => null))?.close().catch(() => undefined)));
}
