import { getDocumentProxy } from 'unpdf';

/**
 * The lowest point (PDF user space, y up) any text of the page reaches, or null when the page has
 * no text: the signature block goes under it when there is room. Read with pdf.js's text layer,
 * so only text counts (a drawing or image low on a text-free strip is not seen; documents from
 * templates are text). A PDF pdf.js cannot read counts as full (the block then gets a page of its
 * own, which is always safe).
 */
export async function lowestTextY(pdf: Buffer, pageIndex: number): Promise<number | null> {
  let doc: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // pdf.js takes ownership of (detaches) the array it is given: a copy
    doc = await getDocumentProxy(new Uint8Array(pdf));
    const page = await doc.getPage(pageIndex + 1);
    const content = await page.getTextContent();
    let lowest: number | null = null;
    for (const item of content.items) {
      if (!('str' in item) || !item.str.trim()) continue;
      const [, , c, d, , f] = item.transform as number[];
      // the baseline minus the descent (about a quarter of the font's height)
      const bottom = f - Math.hypot(c, d) * 0.25;
      if (lowest === null || bottom < lowest) lowest = bottom;
    }
    return lowest;
  } catch {
    return Number.NEGATIVE_INFINITY;
  } finally {
    await doc?.loadingTask.destroy().catch(() => undefined);
  }
}
