import type { Browser, BrowserContext } from 'playwright-core';
import type { AppContext } from '../app-context.ts';
import { ApiError } from '../http/errors.ts';
import { discardBrowser, getBrowser, RENDER_FAILED, rendererUnavailable } from './chromium.ts';
import { sealHtml } from './seal-html.ts';

/** How long a print's browser context may take to close before the whole browser is replaced. */
const CLOSE_TIMEOUT_MS = 5_000;

class RenderTimedOut extends Error {}

// page number footer: a signed document's pages must be countable
const FOOTER =
  '<div style="font-size:8px;width:100%;text-align:center;color:#555;font-family:sans-serif">' +
  '<span class="pageNumber"></span> / <span class="totalPages"></span></div>';

/**
 * HTML → PDF (A4, backgrounds printed, page numbers in the footer; a template's CSS `@page` size
 * wins) with the process's Chromium. The page is a sealed box: JavaScript off, offline, and every
 * request it tries (images, style sheets, fonts, frames, file:// or http(s)://) is refused, so a
 * template can neither reach the network or the disk nor run code; images must be data: URLs.
 */
export async function htmlToPdf(ctx: AppContext, html: string): Promise<Buffer> {
  await slot();
  try {
    return await print(ctx, html);
  } finally {
    release();
  }
}

// a page costs tens of MB in the browser: renders beyond this many wait their turn
const MAX_CONCURRENT = 4;
let running = 0;
const waiting: (() => void)[] = [];
function slot(): Promise<void> {
  if (running < MAX_CONCURRENT) {
    running++;
    return Promise.resolve();
  }
  return new Promise((resolve) => waiting.push(resolve));
}
function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

/**
 * One print under one deadline (VERICASE_PDF_RENDER_TIMEOUT_SECONDS, 60 s): page.pdf() has no
 * timeout of its own, and a template the validator accepts can keep Chromium printing for minutes (a
 * 900 kB word, a box of 10^8 px, 5,000 page breaks). Without the deadline such a render held its
 * slot and its renderer processes for good, and with four of them every later render of every
 * workspace waited forever. Past it the render is a 400 and its context is closed, which ends its
 * renderer; a browser that cannot close it in a few seconds is replaced.
 */
async function print(ctx: AppContext, html: string): Promise<Buffer> {
  const { browser, context } = await openContext(ctx);
  const limitMs = ctx.config.pdfRenderTimeoutMs;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RenderTimedOut()), limitMs);
  });
  const work = printPage(context, html, limitMs);
  // the print loses the race on a timeout, then fails when its context closes: nothing waits for it
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } catch (err) {
    if (err instanceof RenderTimedOut) {
      throw new ApiError(
        400,
        `The document could not be rendered within ${limitMs / 1000} s: make the template shorter or simpler (fewer pages, smaller boxes, shorter words)`,
        undefined,
        RENDER_FAILED,
      );
    }
    if (err instanceof ApiError) throw err;
    if (!browser.isConnected())
      throw rendererUnavailable(`the browser stopped while printing (${firstLine(err)})`);
    throw new ApiError(
      400,
      `The document could not be rendered: ${firstLine(err)}`,
      undefined,
      RENDER_FAILED,
    );
  } finally {
    clearTimeout(timer);
    const closed = await Promise.race([
      context.close().then(
        () => true,
        () => false,
      ),
      new Promise<boolean>((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS, false).unref()),
    ]);
    if (!closed) await discardBrowser(ctx, browser);
  }
}

async function printPage(context: BrowserContext, html: string, limitMs: number): Promise<Buffer> {
  await context.route('**/*', (route) => {
    const url = route.request().url();
    // data: URLs are the page's own bytes (inline images); anything else leaves the page
    return url.startsWith('data:') ? route.continue() : route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  page.setDefaultTimeout(limitMs);
  await page.setContent(sealHtml(html), { waitUntil: 'load', timeout: limitMs });
  const pdf = await page.pdf({
    format: 'A4',
    printBackground: true,
    preferCSSPageSize: true,
    displayHeaderFooter: true,
    headerTemplate: '<span></span>',
    footerTemplate: FOOTER,
    margin: { top: '18mm', bottom: '18mm', left: '16mm', right: '16mm' },
  });
  return Buffer.from(pdf);
}

const CONTEXT_OPTIONS = { javaScriptEnabled: false, offline: true, serviceWorkers: 'block' } as const;

/** A fresh browser context; a browser that cannot open one (it died) is replaced once. */
async function openContext(ctx: AppContext): Promise<{ browser: Browser; context: BrowserContext }> {
  const browser = await getBrowser(ctx);
  try {
    return { browser, context: await browser.newContext(CONTEXT_OPTIONS) };
  } catch {
    await discardBrowser(ctx, browser);
  }
  const fresh = await getBrowser(ctx);
  try {
    return { browser: fresh, context: await fresh.newContext(CONTEXT_OPTIONS) };
  } catch (err) {
    await discardBrowser(ctx, fresh);
    throw rendererUnavailable(`the browser did not open a page (${firstLine(err)})`);
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
