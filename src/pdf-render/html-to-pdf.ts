import type { AppContext } from '../app-context.ts';
import { ApiError } from '../http/errors.ts';
import { getBrowser, RENDER_FAILED, rendererUnavailable } from './chromium.ts';

/** Longest a page may take to load and print: a document is static HTML, so this only stops a runaway. */
const RENDER_TIMEOUT_MS = 60_000;

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
  const browser = await getBrowser(ctx);
  let context: Awaited<ReturnType<typeof browser.newContext>>;
  try {
    context = await browser.newContext({ javaScriptEnabled: false, offline: true, serviceWorkers: 'block' });
  } catch (err) {
    throw rendererUnavailable(`the browser did not open a page (${firstLine(err)})`);
  }
  try {
    await context.route('**/*', (route) => {
      const url = route.request().url();
      // data: URLs are the page's own bytes (inline images); anything else leaves the page
      return url.startsWith('data:') ? route.continue() : route.abort('blockedbyclient');
    });
    const page = await context.newPage();
    page.setDefaultTimeout(RENDER_TIMEOUT_MS);
    await page.setContent(html, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
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
  } catch (err) {
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
    await context.close().catch(() => undefined);
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
