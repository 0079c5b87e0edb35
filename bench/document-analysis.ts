/**
 * Issue 12 figures: document analysis time (`analyzeDocument`, no database, no HTTP) for a one-page
 * PDF with a text layer and for a one-page scan that needs OCR (a PNG, and the same image inside a
 * text-less PDF), in a fresh process: the first call pays the loading of pdf.js / the start of the
 * tesseract worker with its English + French data, then warm calls reuse them.
 *
 * Run directly with `node bench/document-analysis.ts` (npm run bench does, BENCH_ONLY=document-analysis).
 * The scan is drawn with the tests' bitmap font (34 lines of a Kbis, black on white, softened edges).
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import {
  type AnalysisInput,
  analyzeDocument,
  shutdownOcr,
} from '../src/checks/types/document/analysis/index.ts';
import { noisePng, textPng } from '../test/helpers/bitmap-text-png.ts';
import { percentile } from './lib.ts';

const NOW = new Date('2026-11-23T10:00:00Z');
const target: AnalysisInput['target'] = {
  kind: 'company',
  name: 'Acme Solutions',
  registrationNumber: '552100554',
  country: 'FR',
};

const pageLines = [
  'GREFFE DU TRIBUNAL DE COMMERCE DE PARIS',
  'EXTRAIT KBIS',
  'EXTRAIT D IMMATRICULATION PRINCIPALE AU REGISTRE DU COMMERCE',
  'A JOUR AU 02/11/2026',
  '',
  'IDENTIFICATION DE LA PERSONNE MORALE',
  'IMMATRICULATION AU RCS, NUMERO: 552 100 554 R.C.S. PARIS',
  'DATE D IMMATRICULATION: 14/03/2011',
  'DENOMINATION: ACME SOLUTIONS SAS',
  'FORME JURIDIQUE: SOCIETE PAR ACTIONS SIMPLIFIEE',
  'CAPITAL SOCIAL: 10 000,00 EUROS',
  'ADRESSE DU SIEGE: 12 RUE DE LA PAIX 75002 PARIS',
  'DUREE DE LA PERSONNE MORALE: JUSQU AU 13/03/2110',
  '',
  'GESTION, DIRECTION, ADMINISTRATION, CONTROLE, ASSOCIES',
  'PRESIDENT: MARTIN JEAN PIERRE',
  'DATE ET LIEU DE NAISSANCE: 12/04/1975 A LYON',
  'NATIONALITE: FRANCAISE',
  'DOMICILE PERSONNEL: 8 AVENUE VICTOR HUGO 69003 LYON',
  'COMMISSAIRE AUX COMPTES: CABINET DURAND ET ASSOCIES',
  '',
  'RENSEIGNEMENTS RELATIFS A L ACTIVITE ET A L ETABLISSEMENT',
  'ADRESSE DE L ETABLISSEMENT: 12 RUE DE LA PAIX 75002 PARIS',
  'ACTIVITE: CONSEIL EN SYSTEMES ET LOGICIELS INFORMATIQUES',
  'DATE DE COMMENCEMENT D ACTIVITE: 14/03/2011',
  'ORIGINE DU FONDS: CREATION',
  'MODE D EXPLOITATION: EXPLOITATION DIRECTE',
  '',
  'LE GREFFIER',
  'FIN DE L EXTRAIT',
  'NOMBRE DE PAGES: 1',
  'DELIVRE LE 02/11/2026',
  'CODE DE VERIFICATION: WXYZ 1234',
  'WWW.INFOGREFFE.FR',
];

async function textPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  pageLines.forEach((line, i) => {
    page.drawText(line, { x: 40, y: 800 - i * 22, size: 10, font });
  });
  return Buffer.from(await doc.save());
}

async function scannedPdf(png: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const img = await doc.embedPng(png);
  const page = doc.addPage([595, 842]);
  page.drawImage(img, { x: 0, y: 0, width: 595, height: 842 });
  return Buffer.from(await doc.save());
}

const ms = (v: number) => `${v.toFixed(0)} ms`;

async function time(input: AnalysisInput, expect: string): Promise<number> {
  const t = performance.now();
  const out = await analyzeDocument(input);
  const elapsed = performance.now() - t;
  if (out.verdict !== expect) throw new Error(`expected ${expect}, got ${out.verdict}: ${out.comment}`);
  return elapsed;
}

async function series(input: AnalysisInput, expect: string, n: number): Promise<number[]> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(await time(input, expect));
  return xs.sort((a, b) => a - b);
}

export async function runDocumentAnalysisBench(): Promise<void> {
  const pdf = await textPdf();
  const png = textPng(pageLines);
  const scan = await scannedPdf(png);
  const base = { documentTypeKey: 'registration_certificate', target, now: NOW };
  const pdfInput = { ...base, files: [{ bytes: pdf, mime: 'application/pdf', filename: 'kbis.pdf' }] };
  const pngInput = { ...base, files: [{ bytes: png, mime: 'image/png', filename: 'kbis.png' }] };
  const scanInput = { ...base, files: [{ bytes: scan, mime: 'application/pdf', filename: 'scan.pdf' }] };
  const noiseInput = {
    ...base,
    files: [{ bytes: noisePng(1240, 1754), mime: 'image/png', filename: 'noise.png' }],
  };
  const blobsInput = {
    ...base,
    files: [{ bytes: noisePng(1240, 1754, 3, 2), mime: 'image/png', filename: 'blobs.png' }],
  };

  const firstPdf = await time(pdfInput, 'approved');
  const warmPdf = await series(pdfInput, 'approved', 20);
  const firstOcr = await time(pngInput, 'approved');
  const warmOcr = await series(pngInput, 'approved', 5);
  const warmScan = await series(scanInput, 'approved', 3);
  const noise = await series(noiseInput, 'need_review', 3);
  const blobs = await series(blobsInput, 'need_review', 1);
  await shutdownOcr();

  const p50 = (xs: number[]) => percentile(xs, 50);
  const size = `${png.readUInt32BE(16)} x ${png.readUInt32BE(20)}`;
  const rows: [string, string][] = [
    ['one-page PDF with a text layer, first call (pdf.js loaded)', ms(firstPdf)],
    [
      'one-page PDF with a text layer, warm (p50 / max of 20)',
      `${ms(p50(warmPdf))} / ${ms(warmPdf.at(-1) ?? 0)}`,
    ],
    [
      `one-page scan (PNG ${size}, ${(png.length / 1024).toFixed(0)} KB), first call (worker start + OCR)`,
      ms(firstOcr),
    ],
    ['one-page scan (PNG), warm (p50 / max of 5)', `${ms(p50(warmOcr))} / ${ms(warmOcr.at(-1) ?? 0)}`],
    ['the same scan inside a text-less PDF, warm (p50 of 3)', ms(p50(warmScan))],
    ['A4 of noise at 150 dpi (1240 x 1754), unreadable by the pre-check, no OCR (p50 of 3)', ms(p50(noise))],
    ['A4 of blurred noise (passes the pre-check), OCR finds gibberish → unreadable', ms(p50(blobs))],
  ];
  console.log('\n## Document analysis (issue 12), one process, 2-core machine\n');
  console.log('| measurement | time |\n|---|---|');
  for (const [name, figure] of rows) console.log(`| ${name} | ${figure} |`);
}

if (import.meta.url === `file://${process.argv[1]}`) await runDocumentAnalysisBench();
