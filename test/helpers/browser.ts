/**
 * Headless Chromium for the browser tests and the portal bench: Debian's `chromium` package driven
 * by playwright-core (which downloads no browser of its own). A missing browser is a failure that
 * says how to install it, never a skip.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { signInHeaders } from './console-session.ts';

export const CHROMIUM = process.env.VERICASE_CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface ChromiumSession {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A fresh persistent profile (its own user-data-dir, removed on close) with `options` (viewport,
 * locale...). `extraFlags`: e.g. a fake camera.
 */
export async function openChromium(
  options: Parameters<typeof chromium.launchPersistentContext>[1] = {},
  extraFlags: string[] = [],
): Promise<ChromiumSession> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}. The browser tests need Debian's chromium package: ` +
        'run `apt-get update && apt-get install -y chromium` (.ci/run does it), or set VERICASE_CHROMIUM.',
    );
  }
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [...FLAGS, ...extraFlags],
    ...options,
  });
  // waits end when the page gets there; the ceiling is for a loaded machine (a full suite's
  // background jobs share the cores), not a pace the page must keep
  context.setDefaultTimeout(120_000);
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export type { Browser, Page };

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../test-output/screenshots');

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

/** Screenshots of the steps of one run, at phone and desktop widths, numbered in order. */
export class Screenshots {
  readonly files: string[] = [];
  private n = 0;
  private readonly run: string;
  constructor(run: string) {
    this.run = run;
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    for (const f of fs.readdirSync(SCREENSHOT_DIR))
      if (f.startsWith(`${run}-`)) fs.rmSync(path.join(SCREENSHOT_DIR, f));
  }

  /** The page at both widths (full page), then back to the size it had. */
  async take(page: Page, step: string): Promise<void> {
    const before = page.viewportSize();
    const n = String(++this.n).padStart(2, '0');
    for (const [label, size] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      await page.setViewportSize(size);
      const file = path.join(SCREENSHOT_DIR, `${this.run}-${n}-${step}-${label}.png`);
      await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
      this.files.push(path.relative(process.cwd(), file));
    }
    if (before) await page.setViewportSize(before);
  }
}

/**
 * A new page of `chrome` signed in to the console at `base` as `who`: the session cookie the
 * sign-in page would have set, from POST /console/api/login. Page errors are logged.
 */
export async function signedInPage(
  chrome: ChromiumSession,
  base: string,
  who: { email: string; password: string },
): Promise<Page> {
  const headers = await signInHeaders(base, who.email, who.password);
  const eq = headers.cookie.indexOf('=');
  await chrome.context.clearCookies();
  await chrome.context.addCookies([
    {
      name: headers.cookie.slice(0, eq),
      value: headers.cookie.slice(eq + 1),
      url: base,
      httpOnly: true,
      sameSite: 'Strict',
    },
  ]);
  const page = await chrome.context.newPage();
  page.on('pageerror', (err) => console.log('page error:', err.message));
  return page;
}
