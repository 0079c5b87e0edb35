import { loadUnpdf } from '../../../shared/lazy-module.ts';
import { isPdf, isPng, pngTextChunks } from '../id_document/document-reader.ts';

/** Outcomes a document can force in the sandbox (docs/sandbox.md), instead of the analysis. */
export const DOCUMENT_SANDBOX_OUTCOMES = ['approved', 'rejected', 'undecided', 'error', 'pending'] as const;
export type DocumentSandboxOutcome = (typeof DOCUMENT_SANDBOX_OUTCOMES)[number];

const known = (v: string | undefined): DocumentSandboxOutcome | null => {
  const value = v?.trim().toLowerCase();
  return value && (DOCUMENT_SANDBOX_OUTCOMES as readonly string[]).includes(value)
    ? (value as DocumentSandboxOutcome)
    : null;
};

const PDF_MARK = /sandbox_outcome\s*:\s*([a-z]+)/i;

/** The text layer of a PDF (empty when it has none or cannot be read). */
async function pdfText(bytes: Buffer): Promise<string> {
  try {
    const { extractText } = await loadUnpdf();
    const { text } = await extractText(new Uint8Array(bytes), { mergePages: true });
    return text;
  } catch {
    return '';
  }
}

/**
 * The outcome the files force, if any: a PNG `tEXt` chunk `sandbox_outcome` (as for id_document),
 * or a PDF whose text contains `sandbox_outcome: <outcome>`. The first file that names one decides.
 */
export async function forcedOutcome(files: Buffer[]): Promise<DocumentSandboxOutcome | null> {
  for (const bytes of files) {
    if (isPng(bytes)) {
      const forced = known(pngTextChunks(bytes).sandbox_outcome);
      if (forced) return forced;
    } else if (isPdf(bytes)) {
      // the text layer is usually compressed: read it as a PDF reader would
      const forced = known(PDF_MARK.exec(await pdfText(bytes))?.[1]);
      if (forced) return forced;
    }
  }
  return null;
}
