import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { composeIBAN, friendlyFormatIBAN } from 'ibantools';
import jpeg from 'jpeg-js';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { shutdownOcr } from '../src/checks/types/document/analysis/index.ts';
import { decodePng } from '../src/checks/types/document/analysis/png.ts';
import { textPng } from './helpers/bitmap-text-png.ts';
import { checkEventTypes, documentCase, submitDocument } from './helpers/document-checks.ts';
import { exifOrientation } from './helpers/face-images.ts';
import { newWorkspace } from './helpers/harness.ts';

/**
 * The document check with the real analysis (no sandbox outcome in the files): a registration
 * certificate PDF with a text layer, written here with pdf-lib, read by the job.
 */

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

const kbis = (name: string, siren: string) =>
  textPdf([
    'Greffe du Tribunal de Commerce de Paris',
    'EXTRAIT KBIS',
    'Extrait d’immatriculation principale au registre du commerce et des sociétés',
    `à jour au ${new Date().toISOString().slice(0, 10)}`,
    `Immatriculation au RCS, numéro : ${siren.replace(/(\d{3})(?=\d)/g, '$1 ')} R.C.S. Paris`,
    `Dénomination ou raison sociale : ${name}`,
    'Forme juridique : Société par actions simplifiée',
    'Adresse du siège : 12 rue de la Paix 75002 Paris',
  ]);

/**
 * The page as a phone stores a portrait photo: pixels a quarter turned to the left, EXIF
 * orientation 6 telling every viewer to turn them back (so it looks upright to a person), in the
 * TIFF byte order of an iPhone (big-endian) or of many Android phones (little-endian).
 */
function sidewaysPhotoJpeg(png: Buffer, littleEndian: boolean): Buffer {
  const img = decodePng(png);
  assert.ok(img);
  const { width: w, height: h, channels, data } = img;
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const s = (y * w + x) * channels;
      const d = ((w - 1 - x) * h + y) * 4; // turned left: (x, y) goes to (y, w - 1 - x), h wide
      const grey = channels < 3;
      rgba[d] = data[s];
      rgba[d + 1] = grey ? data[s] : data[s + 1];
      rgba[d + 2] = grey ? data[s] : data[s + 2];
      rgba[d + 3] = 255;
    }
  const jpg = jpeg.encode({ data: rgba, width: h, height: w }, 92).data;
  return Buffer.concat([jpg.subarray(0, 2), exifOrientation(6, littleEndian), jpg.subarray(2)]);
}

describe('document check: real analysis', () => {
  test('a Kbis of the target company (name and number) → approved, what was read in data', async () => {
    const api = await newWorkspace();
    const { done } = await submitDocument(api, [await kbis('Acme Industries SAS', '552100554')]);
    assert.equal(done.status, 'approved', JSON.stringify(done.data));
    assert.equal(done.data.result, 'approved');
    assert.equal(done.data.review.reviewer_type, 'system');
    const info = done.data.information.document_analysis;
    assert.equal(info.model, 'registration_certificate');
    assert.equal(info.registration_number, '552100554');
    assert.match(info.name, /Acme Industries/);
    assert.equal(info.document_type, 'kbis');
    const results = done.data.detailed_results.document_analysis;
    assert.equal(results.model, 'registration_certificate');
    assert.equal(results.name_matching.result, 'approved');
    assert.equal(results.registration_number_matching.result, 'approved');
    assert.deepEqual(await checkEventTypes(api.workspaceId), ['Check.Started', 'Check.Approved']);
  });

  test("the company's number written as an RCS mention, a SIRET or a VAT number still matches the SIREN read; received is what was read", async () => {
    const api = await newWorkspace();
    const pdf = await kbis('Acme Industries SAS', '552100554');
    for (const written of [
      'RCS Paris B 552 100 554',
      '552 100 554 R.C.S. Paris',
      '55210055400013',
      'FR40552100554',
    ]) {
      const kase = await api.post('/v1/cases', {
        name: 'number',
        companies: [
          { type: 'main', name: 'Acme Industries SAS', country: 'FR', registration_number: written },
        ],
      });
      assert.equal(kase.status, 201, JSON.stringify(kase.body));
      const { done } = await submitDocument(api, [pdf], {}, { company_id: kase.body.companies[0].id });
      const criterion = done.data.detailed_results.document_analysis.registration_number_matching;
      assert.equal(criterion.result, 'approved', `${written}: ${JSON.stringify(criterion)}`);
      assert.equal(criterion.received, '552100554', written);
      assert.equal(done.status, 'approved', `${written}: ${JSON.stringify(done.data)}`);
    }
  });

  test('a name found without a label: received and the information name say it as the document writes it', async () => {
    const api = await newWorkspace();
    const kase = await api.post('/v1/cases', {
      name: 'unlabelled',
      companies: [{ type: 'main', name: 'Acme SAS', country: 'FR', registration_number: '552100554' }],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const pdf = await textPdf(['Kbis extract ACME SAS 552100554']);
    const { done } = await submitDocument(api, [pdf], {}, { company_id: kase.body.companies[0].id });
    const criterion = done.data.detailed_results.document_analysis.name_matching;
    assert.deepEqual(
      { result: criterion.result, expected: criterion.expected, received: criterion.received },
      { result: 'approved', expected: 'Acme SAS', received: 'ACME SAS' },
    );
    assert.equal(done.data.information.document_analysis.name, 'ACME SAS');
    // as stored
    const again = await api.get(`/v1/checks/document/${done.id}`);
    assert.equal(again.body.data.information.document_analysis.name, 'ACME SAS');
  });

  test('a Kbis of another company → need_review (or rejected with automatic_rejection), the reason in the review comment', async () => {
    const api = await newWorkspace();
    const other = await kbis('Boulangerie Martin', '732829320');
    const { done } = await submitDocument(api, [other]);
    assert.equal(done.status, 'need_review', JSON.stringify(done.data));
    assert.equal(done.data.result, null);
    assert.equal(done.data.detailed_results.document_analysis.name_matching.result, 'rejected');
    assert.equal(
      done.data.detailed_results.document_analysis.registration_number_matching.result,
      'rejected',
    );
    assert.match(
      done.data.review.comment,
      /^Needs a review \(automatic_rejection is off\): Failed: .*name matching/,
    );
    const { companyId } = await documentCase(api);
    const strict = await submitDocument(
      api,
      [other],
      { automatic_rejection: true },
      { company_id: companyId },
    );
    assert.equal(strict.done.status, 'rejected');
    assert.match(strict.done.data.review.comment, /^Rejected automatically \(automatic_rejection\)/);
  });

  test('bank account details of the company: IBAN and BIC read, validated and compared with its banking information', async () => {
    const api = await newWorkspace();
    const iban = composeIBAN({ countryCode: 'FR', bban: '30006000011234567890189' }) as string;
    const kase = await api.post('/v1/cases', {
      name: 'RIB case',
      companies: [
        {
          type: 'main',
          name: 'Acme Industries SAS',
          country: 'FR',
          registration_number: '552100554',
          banking_information: { iban, bic: 'AGRIFRPP882' },
        },
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const rib = await textPdf([
      "RELEVE D'IDENTITE BANCAIRE",
      'TITULAIRE: ACME INDUSTRIES SAS',
      'BANQUE: CREDIT AGRICOLE',
      `IBAN: ${friendlyFormatIBAN(iban)}`,
      'BIC: AGRIFRPP882',
    ]);
    const { done } = await submitDocument(
      api,
      [rib],
      { document_type_key: 'bank_account_details' },
      { company_id: kase.body.companies[0].id },
    );
    const info = done.data.information.document_analysis;
    assert.equal(info.model, 'iban');
    assert.equal(info.iban, iban);
    assert.equal(info.bic, 'AGRIFRPP882');
    const results = done.data.detailed_results.document_analysis;
    for (const c of ['valid_iban', 'valid_bic', 'name_matching', 'iban_matching', 'bic_matching'])
      assert.equal(results[c].result, 'approved', c);
    assert.equal(done.status, 'approved', JSON.stringify(done.data));
  });

  test('a phone photo of a RIB, stored sideways with its EXIF orientation (either byte order), is read upright', async () => {
    const api = await newWorkspace();
    const iban = composeIBAN({ countryCode: 'FR', bban: '30006000011234567890189' }) as string;
    const kase = await api.post('/v1/cases', {
      name: 'RIB photo',
      companies: [
        { type: 'main', name: 'Acme Industries SAS', country: 'FR', banking_information: { iban } },
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const page = textPng([
      "RELEVE D'IDENTITE BANCAIRE",
      'TITULAIRE: ACME INDUSTRIES SAS',
      `IBAN: ${friendlyFormatIBAN(iban)}`,
      'BIC: AGRIFRPP882',
    ]);
    for (const littleEndian of [false, true]) {
      const { done } = await submitDocument(
        api,
        [sidewaysPhotoJpeg(page, littleEndian)],
        { document_type_key: 'bank_account_details' },
        { company_id: kase.body.companies[0].id },
      );
      const why = `${littleEndian ? 'II' : 'MM'}: ${JSON.stringify(done.data)}`;
      assert.equal(done.data.information.document_analysis.iban, iban, why);
      assert.equal(done.status, 'approved', why);
    }
  });

  test("a RIB in the banks' usual layout: IBAN and BIC under their long labels, the holder under its label", async () => {
    const api = await newWorkspace();
    const iban = composeIBAN({ countryCode: 'FR', bban: '30006000011234567890189' }) as string;
    const kase = await api.post('/v1/cases', {
      name: 'RIB case',
      companies: [
        { type: 'main', name: 'Acme Industries SAS', country: 'FR', banking_information: { iban } },
      ],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const rib = await textPdf([
      "Relevé d'Identité Bancaire",
      'Code banque   Code guichet   N° de compte   Clé RIB   Domiciliation',
      '30006         00001          12345678901    89        AGENCE PARIS OPERA',
      'IBAN (International Bank Account Number)',
      friendlyFormatIBAN(iban) as string,
      'BIC (Bank Identifier Code)',
      'AGRIFRPP882',
      'Titulaire du compte',
      'ACME INDUSTRIES SAS',
    ]);
    const { done } = await submitDocument(
      api,
      [rib],
      { document_type_key: 'bank_account_details' },
      { company_id: kase.body.companies[0].id },
    );
    const info = done.data.information.document_analysis;
    assert.equal(info.iban, iban);
    assert.equal(info.bic, 'AGRIFRPP882');
    const results = done.data.detailed_results.document_analysis;
    for (const c of ['valid_iban', 'valid_bic', 'name_matching', 'iban_matching'])
      assert.equal(results[c].result, 'approved', c);
    assert.equal(done.status, 'approved', JSON.stringify(done.data));
  });
});
