import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import zlib from 'node:zlib';
import { composeIBAN, friendlyFormatIBAN } from 'ibantools';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { Value } from 'typebox/value';
import { findDates } from '../src/checks/types/document/analysis/dates.ts';
import {
  type AnalysisInput,
  type AnalysisOutcome,
  analyzeDocument,
  DocumentCheckDataDetailedResults,
  DocumentCheckDataInformation,
  kindForKey,
  shutdownOcr,
} from '../src/checks/types/document/analysis/index.ts';
import { containsName, luhnValid, sameName } from '../src/checks/types/document/analysis/normalize.ts';
import { ocrImage } from '../src/checks/types/document/analysis/ocr.ts';
import { pdfInflatesWithin, pdfTextLines } from '../src/checks/types/id_document/document-reader.ts';
import { extractPdf } from '../src/company-data/providers/sandbox/extract-pdf.ts';
import type { CompanyProfile } from '../src/company-data/schemas.ts';
import { noisePng, textPng } from './helpers/bitmap-text-png.ts';
import { crc32 } from './helpers/files.ts';
import { kbisPdf, ribPng, sampleIban } from './helpers/sample-documents.ts';

/**
 * Library-level tests of the document analysis (no database, no HTTP): every test file is made
 * here — PDFs with a text layer written by pdf-lib, "scans" drawn with a bitmap font into PNGs (read
 * by the real OCR), a scanned PDF embedding such an image, and noise.
 */

const NOW = new Date('2026-11-23T10:00:00Z');
const SIREN = '552100554';
const ACME_IBAN = composeIBAN({ countryCode: 'FR', bban: '30006000011234567890189' }) as string;

after(() => shutdownOcr());

async function textPdf(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  lines.forEach((line, i) => {
    page.drawText(line, { x: 50, y: 790 - i * 18, size: 11, font });
  });
  return Buffer.from(await doc.save());
}

async function scannedPdf(png: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const img = await doc.embedPng(png);
  const page = doc.addPage([595, 842]);
  page.drawImage(img, { x: 20, y: 842 - 20 - img.height / 3, width: img.width / 3, height: img.height / 3 });
  return Buffer.from(await doc.save());
}

const kbisLines = (opts: { updated: string; name?: string; siren?: string }) => [
  'Greffe du Tribunal de Commerce de Paris',
  'EXTRAIT KBIS',
  'Extrait d’immatriculation principale au registre du commerce et des sociétés',
  `à jour au ${opts.updated}`,
  'IDENTIFICATION DE LA PERSONNE MORALE',
  `Immatriculation au RCS, numéro : ${(opts.siren ?? SIREN).replace(/(\d{3})(?=\d)/g, '$1 ')} R.C.S. Paris`,
  "Date d'immatriculation : 14/03/2011",
  `Dénomination ou raison sociale : ${opts.name ?? "Société Générale d'Études Numériques SAS"}`,
  'Forme juridique : Société par actions simplifiée',
  'Capital social : 10 000,00 Euros',
  'Adresse du siège : 12 rue de la Paix 75002 Paris',
  'Durée de la personne morale : Jusqu’au 13/03/2110',
];

const company = {
  kind: 'company' as const,
  name: "Societe Generale d'Etudes Numeriques",
  registrationNumber: SIREN,
  country: 'FR',
};

const pdfFile = (bytes: Buffer) => ({ bytes, mime: 'application/pdf', filename: 'doc.pdf' });
const pngFile = (bytes: Buffer) => ({ bytes, mime: 'image/png', filename: 'scan.png' });

async function analyze(
  input: Partial<AnalysisInput> & Pick<AnalysisInput, 'files'>,
): Promise<AnalysisOutcome> {
  const out = await analyzeDocument({
    documentTypeKey: 'registration_certificate',
    target: company,
    now: NOW,
    ...input,
  });
  // Whatever the case, the outcome fits the check's data schemas.
  assert.ok(Value.Check(DocumentCheckDataInformation, out.information), JSON.stringify(out.information));
  assert.ok(
    Value.Check(DocumentCheckDataDetailedResults, out.detailedResults),
    JSON.stringify(out.detailedResults),
  );
  return out;
}

// criteria and information read by name across the union of models
const criteria = (out: AnalysisOutcome): Record<string, any> =>
  out.detailedResults.document_analysis as never;
const info = (out: AnalysisOutcome): Record<string, any> => out.information.document_analysis as never;

const ribLines = (iban: string, holder = 'ACME SOLUTIONS SAS') => [
  "RELEVE D'IDENTITE BANCAIRE",
  `TITULAIRE: ${holder}`,
  'BANQUE: CREDIT AGRICOLE',
  `IBAN: ${friendlyFormatIBAN(iban)}`,
  'BIC: AGRIFRPP882',
];
const acme = {
  kind: 'company' as const,
  name: 'Acme Solutions',
  registrationNumber: '732829320',
  country: 'FR',
};

describe('document analysis: registration certificate (PDF text layer)', () => {
  test('a current Kbis of the target company: every criterion approved', async () => {
    const out = await analyze({ files: [pdfFile(await textPdf(kbisLines({ updated: '2 novembre 2026' })))] });
    assert.equal(out.verdict, 'approved', out.comment ?? '');
    assert.equal(out.unreadable, false);
    assert.equal(out.comment, null);
    const c = criteria(out);
    assert.equal(c.model, 'registration_certificate');
    for (const k of [
      'valid_document_type',
      'name_matching',
      'registration_number_matching',
      'valid_age_in_days',
    ])
      assert.equal(c[k].result, 'approved', k);
    assert.deepEqual(c.address_matching, {
      result: null,
      expected: null,
      received: '12 rue de la Paix 75002 Paris',
    });
    const i = info(out);
    assert.equal(i.name, "Société Générale d'Études Numériques SAS");
    assert.equal(i.registration_number, SIREN);
    assert.equal(i.registration_city, 'Paris');
    assert.equal(i.issuing_date, '2026-11-02');
    assert.equal(i.document_type, 'kbis');
    assert.equal(i.country, 'FR');
    assert.equal(out.information.expiration_date, null);
  });

  test('the target address, when given, is compared', async () => {
    const file = pdfFile(await textPdf(kbisLines({ updated: '2 novembre 2026' })));
    const ok = await analyze({
      files: [file],
      target: { ...company, address: '12, Rue de la Paix, 75002 Paris' },
    });
    assert.equal(criteria(ok).address_matching.result, 'approved');
    const ko = await analyze({
      files: [file],
      target: { ...company, address: '3 place Bellecour 69002 Lyon' },
    });
    assert.equal(criteria(ko).address_matching.result, 'rejected');
    assert.equal(ko.verdict, 'rejected');
  });

  test('a name a letter off in a text layer is not the name: a person looks (OCR slips are tolerated in scans only)', async () => {
    const slip = kbisLines({ updated: '2 novembre 2026', name: "Société Générale d'Etudes Numerique SAS" });
    const out = await analyze({ files: [pdfFile(await textPdf(slip))] });
    assert.deepEqual(criteria(out).name_matching, {
      result: null,
      expected: "Societe Generale d'Etudes Numeriques",
      received: "Société Générale d'Etudes Numerique SAS",
    });
    assert.equal(out.verdict, 'need_review');
    // another name altogether is still another company
    const other = await analyze({
      files: [
        pdfFile(await textPdf(kbisLines({ updated: '2 novembre 2026', name: 'Boulangerie Martin SARL' }))),
      ],
    });
    assert.equal(criteria(other).name_matching.result, 'rejected');
    // the exact name (accents and case aside) approves as before
    const same = await analyze({
      files: [pdfFile(await textPdf(kbisLines({ updated: '2 novembre 2026' })))],
    });
    assert.equal(criteria(same).name_matching.result, 'approved');
  });

  test('the seat read is compared, not words found elsewhere on the page: a moved seat, another street, another city', async () => {
    // the seat moved: the former seat and a branch carry the declared address's words
    const moved = kbisLines({ updated: '2 novembre 2026' }).flatMap((l) =>
      l.startsWith('Adresse du siège')
        ? [
            'Etablissement secondaire : 15 rue Lauriston 75016 Paris',
            'Adresse du siège : 3 place Vendôme 75001 Paris',
            'Ancien siège : 12 avenue Foch (transféré)',
          ]
        : [l],
    );
    const target = { ...company, address: '12 avenue Foch 75016 Paris' };
    const out = await analyze({ files: [pdfFile(await textPdf(moved))], target });
    // the labelled seat, though a branch's postal line comes first
    assert.deepEqual(criteria(out).address_matching, {
      result: 'rejected',
      expected: '12 avenue Foch 75016 Paris',
      received: '3 place Vendôme 75001 Paris',
    });
    assert.notEqual(out.verdict, 'approved');
    // the same house number and postal code on another street: not the address
    const street = kbisLines({ updated: '2 novembre 2026' }).map((l) =>
      l.startsWith('Adresse du siège') ? 'Adresse du siège : 12 rue de la Paix 75016 Paris' : l,
    );
    const other = await analyze({ files: [pdfFile(await textPdf(street))], target });
    assert.equal(criteria(other).address_matching.result, 'rejected');
    // the city changed only: a person looks (most of it matches)
    const city = await analyze({
      files: [pdfFile(await textPdf(street))],
      target: { ...company, address: '12 rue de la Paix 75016 Lyon' },
    });
    assert.equal(criteria(city).address_matching.result, null);
    assert.equal(city.verdict, 'need_review');
    // a street type written short on the document is the word
    const short = kbisLines({ updated: '2 novembre 2026' }).map((l) =>
      l.startsWith('Adresse du siège') ? 'Adresse du siège : 12 av. Foch 75016 Paris' : l,
    );
    const same = await analyze({ files: [pdfFile(await textPdf(short))], target });
    assert.equal(criteria(same).address_matching.result, 'approved');
  });

  test('the address is the postal line, not an amount of five digits, and without its label', async () => {
    const lines = kbisLines({ updated: '2 novembre 2026' }).map((l) =>
      l.startsWith('Capital social') ? 'Capital social : 69000 EUR' : l,
    );
    const colon = await analyze({
      files: [pdfFile(await textPdf(lines))],
      target: { ...company, address: '12 rue de la Paix 75002 Paris' },
    });
    // the capital line comes first and ends in five digits and a word: it was read as the address
    assert.deepEqual(criteria(colon).address_matching, {
      result: 'approved',
      expected: '12 rue de la Paix 75002 Paris',
      received: '12 rue de la Paix 75002 Paris',
    });
    // a table's label cell and value cell read as one line: the label is not part of the address
    const table = lines.map((l) =>
      l.startsWith('Adresse du siège') ? 'Adresse du siège 8 avenue Jean Jaurès 69007 Lyon' : l,
    );
    const out = await analyze({ files: [pdfFile(await textPdf(table))] });
    assert.equal(info(out).address, '8 avenue Jean Jaurès 69007 Lyon');
  });

  test("the sandbox registry's ordered extract passes for its company: a registry extract, dated the day it was drawn", async () => {
    const profile = {
      name: 'Acme Solutions SAS',
      registration_number: '732829320',
      country: 'FR',
      status: 'active',
      registration_date: '1996-12-20',
      legal_form: 'SAS',
      entity_legal_form: null,
      address: { street_address: '8 avenue Jean Jaurès', postal_code: '69007', city: 'Lyon', country: 'FR' },
      share_capital: '62000 EUR',
      classifications: [],
      legal_representatives: [],
      shareholders: [],
    } as unknown as CompanyProfile;
    const out = await analyze({
      files: [pdfFile(await extractPdf(profile, 'Registry extract', NOW))],
      target: { ...acme, name: 'Acme Solutions SAS', address: '8 avenue Jean Jaurès 69007 Lyon' },
    });
    const c = criteria(out);
    for (const k of [
      'valid_document_type',
      'name_matching',
      'registration_number_matching',
      'valid_age_in_days',
      'address_matching',
    ])
      assert.equal(c[k].result, 'approved', `${k}: ${JSON.stringify(c[k])}`);
    assert.equal(out.verdict, 'approved', out.comment ?? '');
    // the registration date is not the issuing date, and the share capital is not the address
    assert.equal(info(out).issuing_date, '2026-11-23');
    // its name is read by its label (`Name:` was no label the analysis knows: null)
    assert.equal(info(out).name, 'Acme Solutions SAS');
    assert.equal(info(out).address, '8 avenue Jean Jaurès, 69007, Lyon, FR');
  });

  test('another company (name and number differ): rejected, the comment says why', async () => {
    const out = await analyze({
      files: [pdfFile(await textPdf(kbisLines({ updated: '2 novembre 2026' })))],
      target: { kind: 'company', name: 'Boulangerie Martin', registrationNumber: '732829320', country: 'FR' },
    });
    assert.equal(out.verdict, 'rejected');
    const c = criteria(out);
    assert.deepEqual(c.name_matching, {
      result: 'rejected',
      expected: 'Boulangerie Martin',
      received: "Société Générale d'Études Numériques SAS",
    });
    assert.deepEqual(c.registration_number_matching, {
      result: 'rejected',
      expected: '732829320',
      received: SIREN,
    });
    assert.match(out.comment ?? '', /name matching/);
    assert.match(out.comment ?? '', /registration number matching/);
  });

  test('the denomination decides: the target named elsewhere on the extract (as a partner) does not approve', async () => {
    const lines = [
      ...kbisLines({ updated: '2 novembre 2026', name: 'Holding Dupont SAS' }),
      'Associé : ACME SOLUTIONS',
    ];
    const out = await analyze({
      target: { ...company, name: 'Acme Solutions' },
      files: [pdfFile(await textPdf(lines))],
    });
    assert.deepEqual(criteria(out).name_matching, {
      result: 'rejected',
      expected: 'Acme Solutions',
      received: 'Holding Dupont SAS',
    });
  });

  test('a denomination with more words than the target is another company: rejected', async () => {
    // every word of "Acme SAS" is in "Acme Solutions SAS", which approved it
    const lines = kbisLines({ updated: '2 novembre 2026', name: 'Acme Solutions SAS' });
    for (const [target, read] of [
      ['Acme SAS', 'Acme Solutions SAS'],
      ['Acme Solutions Group SAS', 'Acme Solutions SAS'],
    ]) {
      const out = await analyze({
        target: { ...company, name: target },
        files: [pdfFile(await textPdf(lines))],
      });
      assert.deepEqual(criteria(out).name_matching, { result: 'rejected', expected: target, received: read });
    }
    // the same words, the legal form written otherwise or left out: the same company
    const same = await analyze({
      target: { ...company, name: 'ACME SOLUTIONS' },
      files: [pdfFile(await textPdf(lines))],
    });
    assert.equal(criteria(same).name_matching.result, 'approved');
  });

  test('a SIRET on the document matches the SIREN of the target; legal suffix and accents ignored', async () => {
    const out = await analyze({
      files: [pdfFile(await textPdf(kbisLines({ updated: '2026-11-20', siren: `${SIREN}00013` })))],
      target: { ...company, name: 'SOCIETE GENERALE D ETUDES NUMERIQUES SASU' },
    });
    assert.equal(criteria(out).registration_number_matching.result, 'approved');
    assert.equal(criteria(out).name_matching.result, 'approved');
    assert.equal(out.verdict, 'approved');
  });

  test("the target's SIRET further down does not approve an extract whose own RCS number is another company's", async () => {
    const other = '732829320';
    const lines = [...kbisLines({ updated: '2026-11-20', siren: other }), `SIRET du siège : ${SIREN}00013`];
    const out = await analyze({ files: [pdfFile(await textPdf(lines))], target: company });
    assert.deepEqual(criteria(out).registration_number_matching, {
      result: null,
      expected: SIREN,
      received: `${other} (the document's own number; ${SIREN}00013 further down)`,
    });
    assert.notEqual(out.verdict, 'approved');
    // its own number first, an officer's (another company's) further down: approved as before
    const officer = [
      ...kbisLines({ updated: '2026-11-20' }),
      'Président : HOLDING DUPONT SAS',
      `Immatriculation au RCS, numéro : ${other.replace(/(\d{3})(?=\d)/g, '$1 ')} R.C.S. Lyon`,
    ];
    const fine = await analyze({ files: [pdfFile(await textPdf(officer))], target: company });
    assert.equal(criteria(fine).registration_number_matching.result, 'approved');
    assert.equal(fine.verdict, 'approved');
  });

  test('a Kbis older than 3 months fails valid_age_in_days', async () => {
    const out = await analyze({ files: [pdfFile(await textPdf(kbisLines({ updated: '2 mars 2026' })))] });
    assert.equal(out.verdict, 'rejected');
    assert.deepEqual(criteria(out).valid_age_in_days, {
      result: 'rejected',
      expected: 'issued between 2026-08-23 and 2026-11-23',
      received: '2026-03-02',
    });
  });

  test('the wrong kind of document fails valid_document_type', async () => {
    const out = await analyze({
      files: [pdfFile(await textPdf(ribLines(ACME_IBAN, "SOCIETE GENERALE D'ETUDES NUMERIQUES")))],
    });
    assert.equal(out.verdict, 'rejected');
    assert.deepEqual(criteria(out).valid_document_type, {
      result: 'rejected',
      expected: 'registration_certificate',
      received: 'bank_account_details',
    });
  });

  test('a UK certificate of incorporation: Companies House number, no age limit', async () => {
    const out = await analyze({
      target: {
        kind: 'company',
        name: 'Acme Widgets Limited',
        registrationNumber: '12345678',
        country: 'GB',
      },
      files: [
        pdfFile(
          await textPdf([
            'CERTIFICATE OF INCORPORATION',
            'OF A PRIVATE LIMITED COMPANY',
            'Company Number 12345678',
            'The Registrar of Companies for England and Wales, hereby certifies that',
            'ACME WIDGETS LTD',
            'is this day incorporated under the Companies Act 2006 as a private company.',
            'Given at Companies House, Cardiff, on 5th March 2019',
          ]),
        ),
      ],
    });
    assert.equal(out.verdict, 'approved', out.comment ?? '');
    const i = info(out);
    assert.equal(i.document_type, 'other');
    assert.equal(i.other_document_type, 'certificate_of_incorporation');
    assert.equal(i.registration_number, '12345678');
    assert.equal(i.country, 'GB');
    assert.deepEqual(criteria(out).valid_age_in_days, {
      result: null,
      expected: null,
      received: '2019-03-05',
    });
  });

  test('a multi-page PDF is read page after page, up to 30 pages', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const lines = kbisLines({ updated: '2 novembre 2026' });
    for (let n = 1; n <= 31; n++) {
      const page = doc.addPage([595, 842]);
      // page 2 holds the number; page 31, past the cap, an expiry in the past that is never read
      const text =
        n === 1
          ? lines.slice(0, 5)
          : n === 2
            ? lines.slice(5)
            : n === 31
              ? ["Date d'expiration : 01/01/2020"]
              : [`Annexe ${n}`];
      text.forEach((line, i) => {
        page.drawText(line, { x: 50, y: 790 - i * 18, size: 11, font });
      });
    }
    const out = await analyze({ files: [pdfFile(Buffer.from(await doc.save()))] });
    assert.equal(out.verdict, 'approved', out.comment ?? '');
    assert.equal(info(out).registration_number, SIREN);
    assert.equal(out.information.expiration_date, null);
  });

  test('no registration number on the target: that criterion is unknown → need_review', async () => {
    const out = await analyze({
      files: [pdfFile(await textPdf(kbisLines({ updated: '2 novembre 2026' })))],
      target: { ...company, registrationNumber: null },
    });
    assert.equal(out.verdict, 'need_review');
    assert.equal(criteria(out).registration_number_matching.result, null);
    assert.match(out.comment ?? '', /Could not be verified: registration number matching/);
    // it says why: the company has none to compare with (it said "expected the registration number
    // of the company", which the reviewer could not tell from a mismatch)
    assert.equal(
      criteria(out).registration_number_matching.expected,
      'a registration number on the company (it has none)',
    );
  });
});

describe('document analysis: registration certificate scanned (OCR)', () => {
  test('a Kbis image: name, SIREN, city and date read by the OCR → approved', async () => {
    const scan = textPng([
      'GREFFE DU TRIBUNAL DE COMMERCE DE PARIS',
      'EXTRAIT KBIS',
      'A JOUR AU 02/11/2026',
      `IMMATRICULATION: ${SIREN.replace(/(\d{3})(?=\d)/g, '$1 ')} R.C.S. PARIS`,
      'DENOMINATION: ACME SOLUTIONS SAS',
      'ADRESSE DU SIEGE: 12 RUE DE LA PAIX 75002 PARIS',
    ]);
    const out = await analyze({ target: { ...acme, registrationNumber: SIREN }, files: [pngFile(scan)] });
    assert.equal(out.verdict, 'approved', out.comment ?? '');
    const i = info(out);
    assert.equal(i.registration_number, SIREN);
    assert.equal(i.registration_city, 'Paris');
    assert.equal(i.issuing_date, '2026-11-02');
    assert.equal(i.document_type, 'kbis');
    assert.match(i.name, /ACME SOLUTIONS/);
  });
});

describe('document analysis: bank details (IBAN / BIC)', () => {
  test('a RIB image read by OCR: IBAN and BIC valid, holder is the target → approved', async () => {
    const out = await analyze({
      documentTypeKey: 'bank_account_details',
      target: acme,
      files: [pngFile(textPng(ribLines(ACME_IBAN)))],
    });
    assert.equal(out.verdict, 'approved', out.comment ?? '');
    const i = info(out);
    assert.equal(i.model, 'iban');
    assert.equal(i.iban, ACME_IBAN);
    assert.equal(i.bic, 'AGRIFRPP882');
    assert.match(i.holder_name, /ACME SOLUTIONS/);
    assert.match(i.bank_name, /CREDIT AGRICOLE/);
    const c = criteria(out);
    assert.equal(c.valid_iban.result, 'approved');
    assert.equal(c.valid_bic.result, 'approved');
    assert.equal(c.name_matching.result, 'approved');
    assert.deepEqual(c.iban_matching, { result: null, expected: null, received: ACME_IBAN });
  });

  test('a scanned PDF (no text layer) is read through the image it embeds', async () => {
    const out = await analyze({
      documentTypeKey: 'rib',
      target: { ...acme, iban: ACME_IBAN, bic: 'AGRIFRPPXXX' },
      files: [pdfFile(await scannedPdf(textPng(ribLines(ACME_IBAN))))],
    });
    assert.equal(out.verdict, 'approved', out.comment ?? '');
    const c = criteria(out);
    assert.equal(c.iban_matching.result, 'approved');
    assert.equal(c.bic_matching.result, 'approved');
  });

  test('letters the OCR reads for digits (O for 0) are folded back when the check digits then hold', async () => {
    const misread = friendlyFormatIBAN(ACME_IBAN)?.replace(/0/g, 'O') as string;
    assert.notEqual(misread, friendlyFormatIBAN(ACME_IBAN));
    const lines = ["RELEVE D'IDENTITE BANCAIRE", 'Titulaire : ACME SOLUTIONS', `IBAN : ${misread}`];
    // a scan: what the OCR read is folded back
    const out = await analyze({
      documentTypeKey: 'bank_account_details',
      target: acme,
      files: [pngFile(textPng(lines))],
    });
    assert.equal(info(out).iban, ACME_IBAN);
    assert.equal(criteria(out).valid_iban.result, 'approved');
    assert.equal(criteria(out).valid_bic.result, null); // no BIC on the document: unknown
    assert.equal(out.verdict, 'need_review');
    // a text layer holds what the issuer typed: a letter for a digit there is a wrong IBAN
    const typed = await analyze({
      documentTypeKey: 'bank_account_details',
      target: acme,
      files: [pdfFile(await textPdf(lines))],
    });
    assert.equal(criteria(typed).valid_iban.result, 'rejected');
    assert.equal(info(typed).iban, misread.replace(/ /g, ''));
    assert.equal(typed.verdict, 'rejected');
  });

  test("the bank's name is read from its label, not from the RIB's bank code line", async () => {
    const out = await analyze({
      documentTypeKey: 'bank_account_details',
      target: acme,
      files: [
        pdfFile(
          await textPdf([
            "RELEVE D'IDENTITE BANCAIRE",
            'Code banque : 30006    Code guichet : 00001',
            'Code établissement : 30006',
            'Titulaire du compte : ACME SOLUTIONS SAS',
            'Domiciliation : BNP PARIBAS PARIS OPERA',
            `IBAN : ${friendlyFormatIBAN(ACME_IBAN)}`,
          ]),
        ),
      ],
    });
    assert.equal(info(out).bank_name, 'BNP PARIBAS PARIS OPERA');
    // a bank code alone (digits) is no name
    const codeOnly = await analyze({
      documentTypeKey: 'bank_account_details',
      target: acme,
      files: [pdfFile(await textPdf(['Banque : 30006', `IBAN : ${friendlyFormatIBAN(ACME_IBAN)}`]))],
    });
    assert.equal(info(codeOnly).bank_name, null);
  });

  test('a registry extract sent as bank details: no IBAN on it, the wrong document → rejected, named', async () => {
    const out = await analyze({
      documentTypeKey: 'bank_account_details',
      files: [pdfFile(await textPdf(kbisLines({ updated: '2 novembre 2026' })))],
    });
    assert.equal(out.verdict, 'rejected');
    assert.match(
      out.comment ?? '',
      /^Failed: valid document type \(expected bank_account_details, read registration_certificate\)\./,
    );
    // the reference's IBAN results have no document type: the shape stays theirs
    assert.equal('valid_document_type' in criteria(out), false);
    assert.equal(criteria(out).valid_iban.result, null);
  });

  test('bank details whose IBAN cannot be read are not the wrong document: review', async () => {
    const out = await analyze({
      documentTypeKey: 'bank_account_details',
      target: acme,
      files: [
        pdfFile(
          await textPdf(["RELEVE D'IDENTITE BANCAIRE", 'TITULAIRE: ACME SOLUTIONS SAS', 'BIC: AGRIFRPP882']),
        ),
      ],
    });
    assert.equal(out.verdict, 'need_review');
    assert.doesNotMatch(out.comment ?? '', /document type/);
  });

  test('an IBAN with wrong check digits, held by someone else: rejected', async () => {
    const bad = `FR00${ACME_IBAN.slice(4)}`;
    const out = await analyze({
      documentTypeKey: 'bank_account_details',
      target: acme,
      files: [pdfFile(await textPdf(ribLines(bad, 'DUPONT ET FILS SARL')))],
    });
    assert.equal(out.verdict, 'rejected');
    const c = criteria(out);
    assert.deepEqual(c.valid_iban, { result: 'rejected', expected: 'a valid IBAN', received: bad });
    assert.equal(c.valid_bic.result, 'approved');
    assert.deepEqual(c.name_matching, {
      result: 'rejected',
      expected: 'Acme Solutions',
      received: 'DUPONT ET FILS SARL',
    });
  });

  test('a holder that cannot be read leaves the name unknown, even where the text names the target elsewhere', async () => {
    // what the OCR made of a two-column RIB of another holder: its holder label misread, the
    // target's name only in the payment reference
    const lines = [
      "RELEVE D'IDENTITE BANCAIRE",
      '; 2 MALLORY BAD',
      'Hilaire du compte 3 impasse du Vol 13001 Marseille',
      `IBAN: ${friendlyFormatIBAN(ACME_IBAN)}`,
      'BIC: AGRIFRPP882',
      'Motif du virement : Facture ACME SOLUTIONS SAS n° 4411',
    ];
    const out = await analyze({
      documentTypeKey: 'bank_account_details',
      target: acme,
      files: [pdfFile(await textPdf(lines))],
    });
    assert.equal(out.verdict, 'need_review', out.comment ?? '');
    assert.equal(info(out).holder_name, null);
    assert.deepEqual(criteria(out).name_matching, {
      result: null,
      expected: 'Acme Solutions',
      received: null,
    });
    assert.equal(criteria(out).valid_iban.result, 'approved');
  });

  test('the IBAN of the target, when known, must be the one on the document', async () => {
    const other = composeIBAN({ countryCode: 'FR', bban: '30004000031234567890143' }) as string;
    const out = await analyze({
      documentTypeKey: 'bank_account_details',
      target: { ...acme, iban: other },
      files: [pdfFile(await textPdf(ribLines(ACME_IBAN)))],
    });
    assert.equal(out.verdict, 'rejected');
    assert.deepEqual(criteria(out).iban_matching, {
      result: 'rejected',
      expected: other,
      received: ACME_IBAN,
    });
  });
});

describe('document analysis: proof of address', () => {
  const bill = (date: string) => [
    'EDF - Facture d’électricité',
    `Date de facture : ${date}`,
    'Titulaire du contrat : Jean Dupont',
    'Adresse de consommation :',
    '8 avenue Victor Hugo',
    '69003 Lyon',
    'Consommation : 412 kWh',
    'Période du 01/05/2026 au 30/06/2026',
  ];
  const jean = {
    kind: 'individual' as const,
    name: null,
    registrationNumber: null,
    country: 'FR',
    firstName: 'Jean',
    lastName: 'Dupont',
  };

  test('a recent energy bill in the name of the individual: approved', async () => {
    const out = await analyze({
      documentTypeKey: 'proof_of_address',
      target: jean,
      files: [pdfFile(await textPdf(bill('01/11/2026')))],
    });
    assert.equal(out.verdict, 'approved', out.comment ?? '');
    const i = info(out);
    assert.equal(i.model, 'proof_of_address');
    assert.equal(i.document_type, 'energy_bill');
    assert.equal(i.issuing_date, '2026-11-01');
    assert.equal(i.issuer, 'EDF');
    assert.equal(i.address, '8 avenue Victor Hugo, 69003 Lyon');
    assert.equal(i.name, 'Jean Dupont');
  });

  test('a label without a name (customer number) is ignored; the name is found in the text', async () => {
    const lines = [
      'EDF - Facture d’électricité',
      'Date de facture : 01/11/2026',
      'Client : 004512 3321',
      'M. JEAN DUPONT',
      '8 avenue Victor Hugo',
      '69003 Lyon',
    ];
    const out = await analyze({
      documentTypeKey: 'proof_of_address',
      target: jean,
      files: [pdfFile(await textPdf(lines))],
    });
    assert.deepEqual(criteria(out).name_matching, {
      result: 'approved',
      expected: 'Jean Dupont',
      // as the bill writes it
      received: 'JEAN DUPONT',
    });
    assert.equal(out.verdict, 'approved', out.comment ?? '');
  });

  test('a bill older than 3 months fails valid_age_in_days', async () => {
    const out = await analyze({
      documentTypeKey: 'proof_of_address',
      target: jean,
      files: [pdfFile(await textPdf(bill('15/07/2026')))],
    });
    assert.equal(out.verdict, 'rejected');
    const c = criteria(out);
    assert.equal(c.valid_age_in_days.result, 'rejected');
    assert.equal(c.valid_age_in_days.received, '2026-07-15');
    assert.equal(c.name_matching.result, 'approved');
    assert.equal(c.valid_document_type.result, 'approved');
  });

  test('maxAgeInDays overrides the 3 months', async () => {
    const out = await analyze({
      documentTypeKey: 'proof_of_address',
      target: jean,
      maxAgeInDays: 365,
      files: [pdfFile(await textPdf(bill('15/07/2026')))],
    });
    assert.equal(criteria(out).valid_age_in_days.result, 'approved');
  });
});

describe('document analysis: other document types', () => {
  test('an expired ID card copy fails valid_expiration_date', async () => {
    const out = await analyze({
      documentTypeKey: 'id_card_copy',
      target: { kind: 'individual', name: 'Jean Dupont', registrationNumber: null, country: 'FR' },
      files: [
        pdfFile(
          await textPdf([
            "CARTE NATIONALE D'IDENTITÉ",
            'Nom : DUPONT',
            'Prénom : Jean',
            'Date de naissance : 12/04/1985',
            "Date d'expiration : 01/01/2025",
          ]),
        ),
      ],
    });
    assert.equal(out.verdict, 'rejected');
    assert.equal(out.information.expiration_date, '2025-01-01');
    const c = criteria(out);
    assert.equal(c.model, 'generic');
    assert.equal(c.valid_document_type.result, 'approved');
    assert.equal(c.name_matching.result, 'approved');
    // the name read is the whole name, given names first, not the surname label alone
    assert.equal(c.name_matching.received, 'Jean DUPONT');
    assert.equal(info(out).name, 'Jean DUPONT');
    assert.deepEqual(c.valid_expiration_date, {
      result: 'rejected',
      expected: 'expires on or after 2026-11-23',
      received: '2025-01-01',
    });
  });

  test('a custom document type cannot be verified by kind: need_review', async () => {
    assert.equal(kindForKey('my_custom_contract'), null);
    const out = await analyze({
      documentTypeKey: 'my_custom_contract',
      files: [
        pdfFile(
          await textPdf(["Contrat de prestation entre Société Générale d'Études Numériques et un client"]),
        ),
      ],
    });
    assert.equal(out.verdict, 'need_review');
    assert.equal(criteria(out).valid_document_type.result, null);
    assert.equal(criteria(out).name_matching.result, 'approved');
  });
});

describe('document analysis: unreadable files', () => {
  test('an image of noise is unreadable → need_review with a comment (not even sent to the OCR)', async () => {
    const out = await analyze({ files: [pngFile(noisePng(600, 300))] });
    assert.equal(out.unreadable, true);
    assert.equal(out.verdict, 'need_review');
    assert.match(out.comment ?? '', /could not be read automatically \(file 1: the image looks like noise/);
    assert.equal(criteria(out).name_matching.result, null);
  });

  test('a compressed PDF that inflates to 200 MB is not opened: unreadable, said, and read no further', async () => {
    // 200 MB of spaces in one FlateDecode content stream: about 200 KB on disk. pdf.js inflated it
    // whole on the event loop (seconds, gigabytes with a few such streams: security walk)
    const stream = zlib.deflateSync(Buffer.alloc(200 * 1024 * 1024, 0x20), { level: 9 });
    const bomb = Buffer.concat([
      Buffer.from(
        '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
          '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
          '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >> endobj\n' +
          `4 0 obj << /Length ${stream.length} /Filter /FlateDecode >> stream\n`,
        'latin1',
      ),
      stream,
      Buffer.from('\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1'),
    ]);
    assert.ok(bomb.length < 1024 * 1024, `${bomb.length} bytes`);
    assert.equal(await pdfInflatesWithin(bomb, 128 * 1024 * 1024), false);
    const out = await analyze({ files: [pdfFile(bomb)] });
    assert.equal(out.unreadable, true);
    assert.equal(out.verdict, 'need_review');
    assert.match(out.comment ?? '', /file 1: the PDF inflates to more than 128 MB once decompressed/);
    // the id_document reader's text of it: nothing, inflated no further than its budget
    assert.deepEqual(pdfTextLines(bomb), []);
    // an ordinary compressed PDF is within bounds
    const ordinary = await textPdf(kbisLines({ updated: '2 novembre 2026' }));
    assert.equal(await pdfInflatesWithin(ordinary, 128 * 1024 * 1024), true);
  });

  test('a PNG libpng cannot decode (rows longer than its width) is unreadable; the OCR goes on', async () => {
    // a valid header (10 × 10 grey), then rows of 30 bytes: tesseract's libpng fails on it, which
    // once threw from tesseract.js's message listener, an uncaught exception that ended the process
    const chunk = (type: string, data: Buffer) => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(crc32(body));
      return Buffer.concat([len, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(10, 0);
    ihdr.writeUInt32BE(10, 4);
    ihdr[8] = 8; // bit depth; colour type 0 (grey), no interlace
    const rows = Buffer.concat(Array.from({ length: 10 }, () => Buffer.from([0, ...Array(30).fill(255)])));
    const bad = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', zlib.deflateSync(rows)),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      assert.equal(await ocrImage(bad), null);
      const out = await analyze({ files: [pngFile(bad)] });
      assert.equal(out.unreadable, true);
      assert.equal(out.verdict, 'need_review');
      const after = await ocrImage(textPng(['ACME SAS 552100554']));
      assert.match(after?.text ?? '', /ACME/);
      assert.deepEqual(uncaught, [], 'the OCR threw outside its promise');
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  test('an image the OCR reads only as gibberish (low confidence) is unreadable', async () => {
    const out = await analyze({ files: [pngFile(noisePng(600, 300, 3, 2))] });
    assert.equal(out.unreadable, true);
    assert.match(out.comment ?? '', /no legible text was found in the image/);
  });

  test('a scanned PDF whose page image is noise is unreadable', async () => {
    const out = await analyze({ files: [pdfFile(await scannedPdf(noisePng(800, 600, 5)))] });
    assert.equal(out.unreadable, true);
    assert.match(out.comment ?? '', /no text layer and its page images look like noise/);
  });

  test('a PDF without text or images, and a file that is no document, are unreadable', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const out = await analyze({
      files: [
        pdfFile(Buffer.from(await doc.save())),
        { bytes: Buffer.from('hello'), mime: 'text/plain', filename: null },
      ],
    });
    assert.equal(out.unreadable, true);
    assert.match(out.comment ?? '', /no text layer/);
    assert.match(out.comment ?? '', /text\/plain cannot be analysed/);
  });

  test('one unreadable file among readable ones is mentioned, the others are analysed', async () => {
    const out = await analyze({
      files: [
        pdfFile(await textPdf(kbisLines({ updated: '2 novembre 2026' }))),
        pngFile(noisePng(300, 200, 7)),
      ],
    });
    assert.equal(out.unreadable, false);
    assert.equal(out.verdict, 'approved');
    assert.match(out.comment ?? '', /Not read: file 2/);
  });

  test('an OCR that runs out of time gives null, and the next OCR still works', async () => {
    const png = textPng(['EXTRAIT KBIS', 'SIREN 552 100 554']);
    assert.equal(await ocrImage(png, 1), null);
    const again = await ocrImage(png);
    assert.match(again?.text ?? '', /KBIS/);
  });
});

describe('document analysis: the sample documents for trying it by hand', () => {
  test('kbis.pdf and rib.png of test/helpers/sample-documents.ts are approved for their company', async () => {
    const target = {
      kind: 'company' as const,
      name: 'Acme Solutions',
      registrationNumber: '552100554',
      country: 'FR',
    };
    const kbis = await analyze({
      target,
      files: [pdfFile(await kbisPdf({ name: 'Acme Solutions SAS', siren: '552100554', date: '2026-11-20' }))],
    });
    assert.equal(kbis.verdict, 'approved', kbis.comment ?? '');
    const rib = await analyze({
      documentTypeKey: 'bank_account_details',
      target,
      files: [pngFile(ribPng('Acme Solutions SAS'))],
    });
    assert.equal(rib.verdict, 'approved', rib.comment ?? '');
    assert.equal(info(rib).iban, sampleIban());
  });
});

describe('document analysis: document type keys', () => {
  test('every built-in key names its kind; custom keys by their words, whole words for short ones', () => {
    for (const key of [
      'registration_certificate',
      'articles_of_association',
      'proof_of_address',
      'bank_account_details',
      'id_card_copy',
      'ubo_register_extract',
      'tax_certificate',
      'shareholder_register',
      'financial_statements',
      'power_of_attorney',
    ])
      assert.equal(kindForKey(key), key);
    assert.equal(kindForKey('kbis'), 'registration_certificate');
    assert.equal(kindForKey('RIB-societe'), 'bank_account_details');
    assert.equal(kindForKey('company_statutes'), 'articles_of_association');
    assert.equal(kindForKey('passport'), 'id_card_copy');
    assert.equal(kindForKey('attorney_letter'), 'power_of_attorney'); // not `rne` inside `attorney`
    assert.equal(kindForKey('tribute'), null); // not `rib` inside a word
  });
});

describe('document analysis: dates', () => {
  test('forms of dates, and the label closest to each date gives its role', () => {
    assert.deepEqual(
      findDates(
        [
          'Extrait du registre du commerce à jour au 2 novembre 2026',
          'Période du 01/05/2026 au 30/06/2026',
          'Date de naissance : 1985-04-12',
          'Valable jusqu’au 31.12.2027',
          'Issued on November 3rd, 2026',
          'Permis B obtenu le 05/06/2004',
          'Registration date: 2015-02-02',
          'Date : 04/11/2026',
          'Page 1/2',
        ].join('\n'),
      ),
      [
        { date: '2026-11-02', role: 'issue' },
        { date: '2026-05-01', role: 'other' },
        { date: '2026-06-30', role: 'other' },
        { date: '1985-04-12', role: 'other' },
        { date: '2027-12-31', role: 'expiry' },
        { date: '2026-11-03', role: 'issue' },
        { date: '2004-06-05', role: 'unlabelled' },
        // a qualified `date:` is not the document's own: registration is when the company began
        { date: '2015-02-02', role: 'other' },
        { date: '2026-11-04', role: 'issue' },
      ],
    );
  });

  test('day, month and year apart (`10 06 2021`, as a French identity card prints them) are read after a label only', () => {
    assert.deepEqual(
      findDates(
        [
          "Date d'expiration : 10 06 2021",
          'Date de naiss. : 15 03 1984',
          'Délivrée le 11 06 2011',
          // unlabelled, or among more digits: part of a number, not a date
          'Tél : 04 72 10 20 30',
          '12 03 2021',
          'Compte 30 06 2021 1234',
        ].join('\n'),
      ),
      [
        { date: '2021-06-10', role: 'expiry' },
        { date: '1984-03-15', role: 'other' },
        { date: '2011-06-11', role: 'issue' },
      ],
    );
  });
});

describe('document analysis: name and number comparison', () => {
  test('accents, case, legal suffixes and one OCR slip are tolerated; other names are not', () => {
    assert.ok(sameName('Société Générale d’Études SAS', 'SOCIETE GENERALE D ETUDES'));
    assert.ok(containsName('TITULAIRE: ACME SOLUTLONS SAS', 'Acme Solutions'));
    assert.ok(!containsName('TITULAIRE: AXIOM SOLUTIONS', 'Acme Solutions'));
    assert.ok(!sameName('Acme Solutions', 'Acme Consulting'));
    assert.ok(luhnValid(SIREN));
  });
});
