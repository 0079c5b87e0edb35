import { loadPdfLib } from '../../../shared/lazy-module.ts';
import type { CompanyProfile } from '../../schemas.ts';

/** Helvetica encodes WinAnsi only: letters with accents keep their base letter, the rest become `?`. */
function printable(text: string): string {
  return [...text]
    .map((c) => {
      if (c.charCodeAt(0) <= 0xff) return c;
      const base = c.normalize('NFD').replace(/\p{M}/gu, '');
      return base.length === 1 && base.charCodeAt(0) <= 0xff ? base : '?';
    })
    .join('');
}

/** A one-page registry extract of a sandbox profile, as the sandbox's ordered document. */
export async function extractPdf(profile: CompanyProfile, title: string): Promise<Buffer> {
  const { PDFDocument, StandardFonts } = await loadPdfLib();
  const pdf = await PDFDocument.create();
  pdf.setTitle(printable(`${title}: ${profile.name}`));
  pdf.setProducer('vericase sandbox registry');
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const page = pdf.addPage([595, 842]);
  let y = 790;
  const line = (text: string, size = 10, f = font) => {
    page.drawText(printable(text).slice(0, 110), { x: 50, y, size, font: f });
    y -= size + 6;
  };
  line(title, 16, bold);
  line('Sandbox registry - generated data, not an official document', 8);
  y -= 10;
  const a = profile.address;
  const rows: [string, string | null][] = [
    ['Name', profile.name],
    ['Registration number', profile.registration_number],
    ['Country', profile.country],
    ['Status', profile.status],
    ['Registration date', profile.registration_date],
    ['Legal form', [profile.legal_form, profile.entity_legal_form].filter(Boolean).join(' - ') || null],
    ['Address', [a.street_address, a.postal_code, a.city, a.country].filter(Boolean).join(', ')],
    ['Share capital', profile.share_capital],
    ['Classifications', profile.classifications.map((c) => `${c.type} ${c.code}`).join(', ')],
  ];
  for (const [label, value] of rows) line(`${label}: ${value ?? '-'}`);
  y -= 10;
  line('Legal representatives', 12, bold);
  for (const r of profile.legal_representatives) line(`${r.name}${r.position ? ` (${r.position})` : ''}`);
  y -= 10;
  line('Shareholders', 12, bold);
  for (const s of profile.shareholders) line(`${s.name}: ${s.ownership_percentage ?? '?'} %`);
  return Buffer.from(await pdf.save());
}
