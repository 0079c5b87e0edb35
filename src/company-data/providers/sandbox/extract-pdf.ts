import {
  safeTextFor,
  TRANSLITERATED_CLOSE,
  TRANSLITERATED_OPEN,
} from '../../../case-reports/pdf/safe-text.ts';
import { drawLine, isolate } from '../../../shared/bidi-text.ts';
import { loadPdfLib } from '../../../shared/lazy-module.ts';
import { embedUnicodeFonts } from '../../../shared/unicode-fonts.ts';
import type { CompanyProfile } from '../../schemas.ts';

/**
 * A one-page registry extract of a sandbox profile, as the sandbox's ordered document. Drawn in
 * DejaVu as the case reports are (src/shared/unicode-fonts.ts): a Bulgarian legal form or a Greek
 * name is printed as written (Helvetica printed `?` for every letter outside WinAnsi, so a document
 * check fed the extract could not match the name); Arabic and Hebrew read right to left inside
 * their lines, each value isolated from its label (src/shared/bidi-text.ts); CJK is transliterated
 * and marked.
 */
export async function extractPdf(
  profile: CompanyProfile,
  title: string,
  issuedAt = new Date(),
): Promise<Buffer> {
  const { PDFDocument } = await loadPdfLib();
  const pdf = await PDFDocument.create();
  pdf.setTitle(`${title}: ${profile.name}`);
  pdf.setProducer('vericase sandbox registry');
  const { regular: font, bold } = await embedUnicodeFonts(pdf, ['regular', 'bold']);
  const safe = safeTextFor(font);
  const page = pdf.addPage([595, 842]);
  let y = 790;
  const line = (text: string, size = 10, f = font) => {
    drawLine(page, safe(text).slice(0, 110), { x: 50, y, size, font: f });
    y -= size + 6;
  };
  line(title, 16, bold);
  line('Sandbox registry - generated data, not an official document', 8);
  // the day it was drawn, as a registry dates its extracts: a document check reads its age from it
  // (without one, the registration date below was the only date, and no extract was recent)
  line(`Date of issue: ${issuedAt.toISOString().slice(0, 10)}`);
  y -= 10;
  const a = profile.address;
  const rows: [string, string | null][] = [
    // the label a document check reads a registry extract's name by (`Name:` left it null)
    ['Company name', profile.name],
    ['Registration number', profile.registration_number],
    ['Country', profile.country],
    ['Status', profile.status],
    ['Registration date', profile.registration_date],
    ['Legal form', [profile.legal_form, profile.entity_legal_form].filter(Boolean).join(' - ') || null],
    ['Address', [a.street_address, a.postal_code, a.city, a.country].filter(Boolean).join(', ')],
    ['Share capital', profile.share_capital],
    ['Classifications', profile.classifications.map((c) => `${c.type} ${c.code}`).join(', ')],
  ];
  for (const [label, value] of rows) line(`${label}: ${isolate(value ?? '-')}`);
  y -= 10;
  line('Legal representatives', 12, bold);
  for (const r of profile.legal_representatives)
    line(`${isolate(r.name)}${r.position ? ` (${isolate(r.position)})` : ''}`);
  y -= 10;
  line('Shareholders', 12, bold);
  for (const s of profile.shareholders) line(`${isolate(s.name)}: ${s.ownership_percentage ?? '?'} %`);
  if (safe.transliterated) {
    y -= 10;
    line(
      `Text between ${TRANSLITERATED_OPEN} ${TRANSLITERATED_CLOSE} is transliterated from a script this document cannot show.`,
      7,
    );
  }
  return Buffer.from(await pdf.save());
}
