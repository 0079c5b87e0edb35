/**
 * Real-looking sample documents for trying document checks by hand (and for tests): a French
 * registration certificate (extrait Kbis) PDF with a text layer, and a bank details (RIB) image that
 * needs OCR. `node test/helpers/sample-documents.ts [dir]` writes kbis.pdf, rib.png and rib-scan.pdf
 * into dir (default: the current directory) for the company below; options by environment:
 * SAMPLE_NAME, SAMPLE_SIREN, SAMPLE_DATE (yyyy-mm-dd, default today).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { composeIBAN, friendlyFormatIBAN } from 'ibantools';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { textPng } from './bitmap-text-png.ts';

export interface SampleCompany {
  name: string;
  siren: string;
  /** yyyy-mm-dd */
  date: string;
  address?: string;
  city?: string;
}

const spacedSiren = (s: string) => s.replace(/(\d{3})(?=\d)/g, '$1 ');
const frDate = (iso: string) => iso.split('-').reverse().join('/');

/** An extrait Kbis-like one-page PDF with a text layer. */
export async function kbisPdf(c: SampleCompany): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const city = c.city ?? 'Paris';
  let y = 790;
  const line = (text: string, opts: { size?: number; f?: typeof font; x?: number; gap?: number } = {}) => {
    page.drawText(text, {
      x: opts.x ?? 50,
      y,
      size: opts.size ?? 10,
      font: opts.f ?? font,
      color: rgb(0.1, 0.1, 0.1),
    });
    y -= opts.gap ?? 16;
  };
  line(`Greffe du Tribunal de Commerce de ${city}`, { f: bold, size: 12, gap: 24 });
  line('EXTRAIT KBIS', { f: bold, size: 16, x: 230, gap: 20 });
  line('Extrait d’immatriculation principale au registre du commerce et des sociétés', { gap: 16 });
  line(`à jour au ${frDate(c.date)}`, { gap: 28 });
  line('IDENTIFICATION DE LA PERSONNE MORALE', { f: bold, gap: 20 });
  line(`Immatriculation au RCS, numéro : ${spacedSiren(c.siren)} R.C.S. ${city}`);
  line("Date d'immatriculation : 14/03/2011");
  line(`Dénomination ou raison sociale : ${c.name}`);
  line('Forme juridique : Société par actions simplifiée');
  line('Capital social : 10 000,00 Euros');
  line(`Adresse du siège : ${c.address ?? '12 rue de la Paix 75002 Paris'}`);
  line('Durée de la personne morale : Jusqu’au 13/03/2110', { gap: 28 });
  line('GESTION, DIRECTION, ADMINISTRATION, CONTRÔLE, ASSOCIÉS', { f: bold, gap: 20 });
  line('Président : MARTIN Jean Pierre');
  line('Date et lieu de naissance : 12/04/1975 à Lyon', { gap: 28 });
  line('RENSEIGNEMENTS RELATIFS À L’ACTIVITÉ ET À L’ÉTABLISSEMENT PRINCIPAL', { f: bold, gap: 20 });
  line('Activité : Conseil en systèmes et logiciels informatiques');
  line('Date de commencement d’activité : 14/03/2011', { gap: 40 });
  line(`Le Greffier — délivré le ${frDate(c.date)}`, { size: 9 });
  return Buffer.from(await doc.save());
}

/** A valid French IBAN derived from a seed number (check digits computed). */
export function sampleIban(seed = '30006000011234567890189'): string {
  return composeIBAN({ countryCode: 'FR', bban: seed }) as string;
}

/** A RIB drawn as a PNG (black on white, bitmap font): only OCR can read it. */
export function ribPng(holder: string, iban = sampleIban(), bic = 'AGRIFRPP882'): Buffer {
  return textPng([
    "RELEVE D'IDENTITE BANCAIRE",
    `TITULAIRE: ${holder.toUpperCase()}`,
    'BANQUE: CREDIT AGRICOLE',
    `IBAN: ${friendlyFormatIBAN(iban)}`,
    `BIC: ${bic}`,
  ]);
}

/** A scanned PDF: no text layer, one page showing the image. */
export async function scannedPdf(png: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const img = await doc.embedPng(png);
  const page = doc.addPage([595, 842]);
  const w = Math.min(555, img.width / 2);
  const h = (img.height * w) / img.width;
  page.drawImage(img, { x: 20, y: 842 - 20 - h, width: w, height: h });
  return Buffer.from(await doc.save());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? '.';
  const company: SampleCompany = {
    name: process.env.SAMPLE_NAME ?? 'Acme Solutions SAS',
    siren: process.env.SAMPLE_SIREN ?? '552100554',
    date: process.env.SAMPLE_DATE ?? new Date().toISOString().slice(0, 10),
  };
  const rib = ribPng(company.name);
  mkdirSync(dir, { recursive: true }); // docs/document-checks.md runs it with a folder that may not exist yet
  writeFileSync(path.join(dir, 'kbis.pdf'), await kbisPdf(company));
  writeFileSync(path.join(dir, 'rib.png'), rib);
  writeFileSync(path.join(dir, 'rib-scan.pdf'), await scannedPdf(rib));
  console.log(
    `kbis.pdf, rib.png, rib-scan.pdf written in ${path.resolve(dir)} for ${company.name} (SIREN ${company.siren}, IBAN ${sampleIban()})`,
  );
}
