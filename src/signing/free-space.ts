import type { getDocumentProxy } from 'unpdf';
import { loadUnpdf } from '../shared/lazy-module.ts';

/** Text lying wholly below this height (points from the bottom) is a page footer (page numbers). */
const FOOTER_ZONE = 60;

export interface PageText {
  /** The top of the highest footer text, or null when the page has none. */
  footerTop: number | null;
  /** The bottom of the lowest other text, or null when there is none. */
  bodyBottom: number | null;
}

/**
 * Where the text of a page lies vertically (PDF user space, y up), read from pdf.js's text layer,
 * so the signature block can go under the body and above a footer. Only text counts (a drawing or
 * an image is not seen; documents from templates are text). A PDF pdf.js cannot read counts as
 * full (the block then gets a page of its own, which is always safe).
 */
export async function pageText(pdf: Buffer, pageIndex: number): Promise<PageText> {
  let doc: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // pdf.js takes ownership of (detaches) the array it is given: a copy
    doc = await (await loadUnpdf()).getDocumentProxy(new Uint8Array(pdf));
    const page = await doc.getPage(pageIndex + 1);
    const content = await page.getTextContent();
    const out: PageText = { footerTop: null, bodyBottom: null };
    for (const item of content.items) {
      if (!('str' in item) || !item.str.trim()) continue;
      const [, , c, d, , f] = item.transform as number[];
      const size = Math.hypot(c, d);
      // from the descent (about a quarter of the size under the baseline) to the cap height
      const bottom = f - size * 0.25;
      const top = f + size * 0.8;
      if (top < FOOTER_ZONE) out.footerTop = Math.max(out.footerTop ?? top, top);
      else out.bodyBottom = Math.min(out.bodyBottom ?? bottom, bottom);
    }
    return out;
  } catch {
    return { footerTop: null, bodyBottom: Number.NEGATIVE_INFINITY };
  } finally {
    await doc?.loadingTask.destroy().catch(() => undefined);
  }
}
