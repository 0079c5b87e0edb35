import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { shutdownOcr } from '../src/checks/types/document/analysis/index.ts';
import { textPng, turnedPng } from './helpers/bitmap-text-png.ts';
import { documentCase, refs, settledDocument, submitDocument } from './helpers/document-checks.ts';
import { type Client, newWorkspace } from './helpers/harness.ts';
import { kbisPdf, ribPng } from './helpers/sample-documents.ts';

/**
 * What the document analysis must never decide alone, through the API with files made here (PNG
 * "scans" drawn with a bitmap font and read by the real OCR, PDFs written by pdf-lib): another
 * person's or company's name a letter off the target's, read perfectly by the OCR; a page turned
 * sideways, whose OCR fragments failed a criterion; and what add_files may correct.
 */

after(() => shutdownOcr());

const todayFr = () => new Date().toISOString().slice(0, 10).split('-').reverse().join('/');
const SIREN = '732829320';

async function individual(api: Client, first: string, last: string) {
  const res = await api.post('/v1/cases', {
    name: `${first} ${last}`,
    companies: [{ type: 'main', name: 'Employer SAS', country: 'FR' }],
    individuals: [
      {
        first_name: first,
        last_name: last,
        birth_date: '1990-01-01',
        relations: [{ roles: ['legal_representative'] }],
      },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { individual_id: res.body.individuals[0].id as string };
}

async function company(api: Client, name: string, address?: Record<string, string>) {
  const res = await api.post('/v1/cases', {
    name,
    companies: [{ type: 'main', name, country: 'FR', registration_number: SIREN, address }],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { company_id: res.body.companies[0].id as string };
}

const idCard = (last: string, first: string, expiry = '01/01/2032') =>
  textPng([
    "CARTE NATIONALE D'IDENTITE",
    `NOM: ${last}`,
    `PRENOMS: ${first}`,
    'NATIONALITE: FRA',
    `DATE D'EXPIRATION: ${expiry}`,
  ]);

const kbisScan = (name: string) =>
  textPng([
    'GREFFE DU TRIBUNAL DE COMMERCE DE LYON',
    'EXTRAIT KBIS',
    `A JOUR AU ${todayFr()}`,
    `IMMATRICULATION AU RCS: ${SIREN.replace(/(\d{3})(?=\d)/g, '$1 ')} R.C.S. LYON`,
    `DENOMINATION: ${name}`,
    'ADRESSE DU SIEGE: 12 RUE DES LILAS 69007 LYON',
  ]);

const criteria = (check: any) => check.data.detailed_results.document_analysis;

describe('document check: a name a letter off is never approved on the OCR tolerance', () => {
  test("another person's ID card (SOPHIE MARTIN for Sophia Marin): need_review, the comment names the letters that differ", async () => {
    const api = await newWorkspace();
    const { done } = await submitDocument(
      api,
      [idCard('MARTIN', 'SOPHIE')],
      { document_type_key: 'id_card_copy', automatic_rejection: true },
      await individual(api, 'Sophia', 'Marin'),
    );
    assert.equal(done.status, 'need_review', JSON.stringify(done.data));
    assert.deepEqual(criteria(done).name_matching, {
      result: null,
      expected: 'Sophia Marin',
      received: 'SOPHIE MARTIN',
    });
    assert.match(
      done.data.review.comment,
      /name matching \(expected Sophia Marin, read SOPHIE MARTIN; the name read differs by one character \(SOPHIE for SOPHIA, MARTIN for MARIN\): an OCR misreading or another name; a person compares\)/,
    );
    // the card of the person it names is approved as before
    const own = await submitDocument(
      api,
      [idCard('MARTIN', 'SOPHIE')],
      { document_type_key: 'id_card_copy' },
      await individual(api, 'Sophie', 'Martin'),
    );
    assert.equal(own.done.status, 'approved', JSON.stringify(own.done.data));
  });

  test('a RIB image held by SOPHIE MARTIN for Sophie Marten, a Kbis image of BOULANGERIE MARTIN for Boulangerie Marlin: need_review', async () => {
    const api = await newWorkspace();
    const rib = await submitDocument(
      api,
      [ribPng('Sophie Martin')],
      { document_type_key: 'bank_account_details' },
      await individual(api, 'Sophie', 'Marten'),
    );
    assert.equal(rib.done.status, 'need_review', JSON.stringify(rib.done.data));
    assert.equal(criteria(rib.done).name_matching.result, null);
    assert.match(rib.done.data.review.comment, /differs by one character \(MARTIN for MARTEN\)/);
    const kbis = await submitDocument(
      api,
      [kbisScan('BOULANGERIE MARTIN')],
      { automatic_rejection: true },
      await company(api, 'Boulangerie Marlin'),
    );
    assert.equal(kbis.done.status, 'need_review', JSON.stringify(kbis.done.data));
    assert.equal(criteria(kbis.done).name_matching.result, null);
    assert.equal(criteria(kbis.done).registration_number_matching.result, 'approved');
    assert.match(kbis.done.data.review.comment, /differs by one character \(MARTIN for MARLIN\)/);
  });
});

describe('document check: text the OCR could not make sense of rejects nothing', () => {
  test('a Kbis scanned sideways or upside down is unreadable: need_review saying so, even with automatic_rejection', async () => {
    const api = await newWorkspace();
    const target = await company(api, 'Boulangerie Martin', {
      street_address: '12 rue des Lilas',
      postal_code: '69007',
      city: 'Lyon',
    });
    // upright, the same page is approved
    const upright = await submitDocument(api, [kbisScan('BOULANGERIE MARTIN')], {}, target);
    assert.equal(upright.done.status, 'approved', JSON.stringify(upright.done.data));
    for (const quarters of [1, 2] as const) {
      const { done } = await submitDocument(
        api,
        [turnedPng(kbisScan('BOULANGERIE MARTIN'), quarters)],
        { automatic_rejection: true },
        target,
      );
      assert.equal(done.status, 'need_review', `${quarters}: ${JSON.stringify(done.data)}`);
      assert.match(
        done.data.review.comment,
        /The document could not be read automatically \(file 1: no legible text was found, only fragments read at an OCR confidence of \d+ with no document wording in them: a page turned sideways or upside down is not read\)/,
      );
      for (const [name, c] of Object.entries(criteria(done)))
        if (name !== 'model') assert.equal((c as any).result, null, `${quarters}: ${name}`);
    }
  });

  test('legible text in which no kind of document is recognised fails a criterion: review, not an automatic rejection', async () => {
    const api = await newWorkspace();
    const { done } = await submitDocument(
      api,
      [textPng(['DENOMINATION: BOULANGERIE DURAND', 'ADRESSE: 3 PLACE BELLECOUR 69002 LYON'])],
      { automatic_rejection: true },
      await company(api, 'Boulangerie Martin'),
    );
    assert.equal(done.status, 'need_review', JSON.stringify(done.data));
    assert.equal(criteria(done).name_matching.result, 'rejected');
    assert.match(
      done.data.review.comment,
      /Not rejected automatically: no document wording was recognised in the text the OCR read, which may be misread\. Failed: name matching/,
    );
  });
});

describe('document check: the newest document decides', () => {
  test('add_files with a current Kbis to a check failing on an old one: its issue date is read, approved', async () => {
    const api = await newWorkspace();
    const { companyId } = await documentCase(api);
    const old = new Date(Date.now() - 200 * 86_400_000).toISOString().slice(0, 10);
    const today = new Date().toISOString().slice(0, 10);
    const acme = { name: 'Acme Industries SAS', siren: '552100554' };
    const first = await submitDocument(
      api,
      [await kbisPdf({ ...acme, date: old })],
      {},
      { company_id: companyId },
    );
    assert.equal(first.done.status, 'need_review');
    assert.equal(criteria(first.done).valid_age_in_days.result, 'rejected');
    const added = await api.post(`/v1/checks/document/${first.done.id}/add_files`, {
      files: await refs(api, [await kbisPdf({ ...acme, date: today })]),
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const done = await settledDocument(api, first.done.id);
    assert.equal(done.status, 'approved', JSON.stringify(done.data));
    assert.equal(done.data.information.document_analysis.issuing_date, today);
    assert.deepEqual(
      {
        result: criteria(done).valid_age_in_days.result,
        received: criteria(done).valid_age_in_days.received,
      },
      { result: 'approved', received: today },
    );
    // the newest document's labels are read first too: a current extract of another company beside
    // an old one of the target is no current extract of the target
    const mixed = await submitDocument(
      api,
      [
        await kbisPdf({ ...acme, date: old }),
        await kbisPdf({ name: 'Boulangerie Martin', siren: SIREN, date: today }),
      ],
      {},
      { company_id: companyId },
    );
    assert.equal(mixed.done.status, 'need_review', JSON.stringify(mixed.done.data));
    assert.equal(criteria(mixed.done).name_matching.result, 'rejected');
    // (the target's number further down than the document's own: a person looks)
    assert.equal(criteria(mixed.done).registration_number_matching.result, null);
    assert.equal(criteria(mixed.done).valid_age_in_days.received, today);
  });
});

describe('document check: dates as identity cards print them', () => {
  test("an ID card's expiry printed `10 06 2021` (day, month, year apart) is read: expired", async () => {
    const api = await newWorkspace();
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    [
      "CARTE NATIONALE D'IDENTITÉ",
      'Nom : DUPONT',
      'Prénom(s) : Jean',
      'Date de naiss. : 15 03 1984',
      "Date d'expiration : 10 06 2021",
    ].forEach((line, i) => {
      page.drawText(line, { x: 50, y: 790 - i * 18, size: 11, font });
    });
    const { done } = await submitDocument(
      api,
      [Buffer.from(await doc.save())],
      { document_type_key: 'id_card_copy', automatic_rejection: true },
      await individual(api, 'Jean', 'Dupont'),
    );
    assert.equal(done.status, 'rejected', JSON.stringify(done.data));
    assert.equal(done.data.information.expiration_date, '2021-06-10');
    assert.equal(criteria(done).valid_expiration_date.result, 'rejected');
    assert.equal(criteria(done).name_matching.result, 'approved');
  });
});
