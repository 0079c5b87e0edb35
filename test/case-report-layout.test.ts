import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { PdfWriter } from '../src/case-reports/pdf/writer.ts';

/** The text of each page of a PDF. */
async function pagesText(bytes: Uint8Array): Promise<string[]> {
  const pdf = await getDocumentProxy(bytes);
  const { text } = await extractText(pdf, { mergePages: false });
  return text as string[];
}

test('a section title is never left alone at the bottom of a page: it goes over with its first entry', async () => {
  // a section title after 0..70 lines of text lands at every height of the first page's bottom
  for (let lines = 0; lines <= 70; lines++) {
    const doc = await PDFDocument.create();
    const w = await PdfWriter.create(doc);
    for (let i = 0; i < lines; i++) w.text(`Line ${i}`);
    w.heading('Individuals (1)');
    w.heading('Ada Lovelace', 2);
    w.fields([
      ['Roles', 'legal representative'],
      ['Flags', 'business contact'],
    ]);
    w.finish('Report', 'now');
    const pages = await pagesText(await doc.save());
    const titlePage = pages.findIndex((p) => p.includes('Individuals (1)'));
    const entryPage = pages.findIndex((p) => p.includes('Ada Lovelace'));
    assert.equal(
      titlePage,
      entryPage,
      `after ${lines} lines the title is on page ${titlePage + 1}, its entry on ${entryPage + 1}`,
    );
    const rowsPage = pages.findIndex((p) => p.includes('legal representative'));
    assert.equal(rowsPage, entryPage, `after ${lines} lines the entry's first row moved away from it`);
  }
});
