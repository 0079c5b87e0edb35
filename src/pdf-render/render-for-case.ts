import type { AppContext } from '../app-context.ts';
import type { Db } from '../db/connect.ts';
import type { DocumentTemplateVersionRow } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { loadPdfLib } from '../shared/lazy-module.ts';
import { loadTemplateContext } from './case-context.ts';
import { RENDER_FAILED } from './chromium.ts';
import { renderTemplate } from './handlebars.ts';
import { htmlToPdf } from './html-to-pdf.ts';
import { sealHtml } from './seal-html.ts';

/**
 * Renders a template version for a case: the Handlebars context (case, main company, signer, date),
 * the HTML (sealed: see seal-html.ts), then the PDF. `missing`: placeholders the template read that had no value (rendered
 * empty). 404 for a case not of the workspace; 400 (`CASE_REPORT_RENDER_FAILED`) for a template that
 * fails to run; 502 when no browser can print.
 */
export async function renderForCase(
  ctx: AppContext,
  db: Db,
  input: {
    workspaceId: string;
    caseId: string;
    version: DocumentTemplateVersionRow;
    signerIndividualId?: string | null;
    now?: Date;
    /** The PDF's title (its document properties): the template's name. */
    title: string;
  },
): Promise<{ html: string; pdf: Buffer; missing: string[]; pages: number }> {
  const context = await loadTemplateContext(db, input);
  let rendered: { html: string; missing: string[] };
  try {
    rendered = renderTemplate(input.version.content, context);
  } catch (err) {
    const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    throw new ApiError(
      400,
      `Document template version ${input.version.number} could not be rendered: ${message}`,
      undefined,
      RENDER_FAILED,
    );
  }
  // the HTML returned is the HTML printed (walls included): a page that shows it shows the document
  const html = sealHtml(rendered.html);
  const printed = await htmlToPdf(ctx, html);
  const { PDFDocument } = await loadPdfLib();
  const doc = await PDFDocument.load(printed, { updateMetadata: false });
  // Chromium titles a page without <title> "about:blank" and signs itself HeadlessChrome: a reader's
  // document properties name the template and this service instead (a <title> of the template's own wins)
  if (!/<title[\s>][^<]*\S/i.test(rendered.html)) doc.setTitle(input.title, { showInWindowTitleBar: true });
  doc.setCreator('vericase');
  doc.setProducer('vericase');
  const pdf = Buffer.from(await doc.save({ useObjectStreams: false }));
  return { html, pdf, missing: rendered.missing, pages: doc.getPageCount() };
}
