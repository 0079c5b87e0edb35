import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mrzFromOcrText } from '../src/checks/types/id_document/mrz-ocr.ts';
import { namesMatch, readMrz } from '../src/checks/types/id_document/mrz-reader.ts';
import { compareWithPerson } from '../src/checks/types/id_document/sandbox-provider.ts';
import { td3Mrz } from './helpers/id-documents.ts';

// What tesseract gave for MRZ lines drawn with the test bitmap font (measured): the repairs that
// turn them back into a valid MRZ, and a misreading that must stay invalid (never a rejection).
describe('MRZ from OCR text', () => {
  test('fillers read as C after the name, a run cut short, « for <<: repaired, check digits valid', () => {
    const text =
      'REPUBLIQUE FRANCAISE\nP<FRACURIE<<MARIE<<<<<<<<<<<<CCCCCCCCCCCC<<<\n18AB123451FRA6711078F3412318<<<<<<<<<<<<04\n';
    const lines = mrzFromOcrText(text);
    assert.deepEqual(lines, [
      'P<FRACURIE<<MARIE<<<<<<<<<<<<<<<<<<<<<<<<<<<',
      '18AB123451FRA6711078F3412318<<<<<<<<<<<<<<04',
    ]);
    const mrz = readMrz(lines as string[], new Date('2026-01-01'), { autocorrect: true });
    assert.equal(mrz?.checkDigitsValid, true);
    assert.equal(mrz?.information.last_name, 'Curie');
    assert.deepEqual(
      mrzFromOcrText(`P<FRACURIE«MARIE${'<'.repeat(27)}\n18AB123451FRA6711078F3412318<<<<<<<<<<<<<<04`),
      ['P<FRACURIE<<MARIE<<<<<<<<<<<<<<<<<<<<<<<<<<<', '18AB123451FRA6711078F3412318<<<<<<<<<<<<<<04'],
    );
  });

  test('a letter read for a digit in a date is autocorrected; a wrong digit stays invalid', () => {
    const fixed = readMrz(
      ['P<FRALOVELACE<<ADA<<<<<<<<<<<<<<<<<<<<<<<<<<', '18AB123451FRA8S12109F3412318<<<<<<<<<<<<<<06'],
      new Date('2026-01-01'),
      { autocorrect: true },
    );
    assert.equal(fixed?.checkDigitsValid, true);
    assert.equal(fixed?.information.birth_date, '1985-12-10');
    const wrong = readMrz(
      ['P<FRALOVELACE<<ADA<<<<<<<<<<<<<<<<<<<<<<<<<<', '18AB123451FRA8512109F1412318<<<<<<<<<<<<<<06'],
      new Date('2026-01-01'),
      { autocorrect: true },
    );
    assert.equal(wrong?.checkDigitsValid, false);
  });

  test('no MRZ-shaped lines → null', () => {
    assert.equal(mrzFromOcrText('hello\nworld'), null);
    assert.equal(mrzFromOcrText(''), null);
  });
});

describe('names read from an MRZ', () => {
  const person = {
    first_name: 'Jean',
    last_name: 'Dupont',
    maiden_name: null,
    birth_date: '1980-01-01',
    birth_country: null,
    gender: null,
    nationality: null,
  };
  const info = (first: string | null, last: string | null, birth = '1980-01-01') => ({
    ...(readMrz(td3Mrz(), new Date('2026-01-01'))?.information as NonNullable<
      ReturnType<typeof readMrz>
    >['information']),
    first_name: first,
    last_name: last,
    birth_date: birth,
  });
  const whole = { first_name: false, last_name: false };

  test('a name followed by fillers is whole: "C" is not "Curie"; one that fills its field may be cut short', () => {
    const short = readMrz(td3Mrz({ lastName: 'C', firstName: '' }), new Date('2026-01-01'));
    assert.deepEqual(short?.namesTruncated, whole);
    assert.equal(namesMatch('Curie', 'C', false), false);
    const long = readMrz(
      td3Mrz({ lastName: 'WOLFESCHLEGELSTEINHAUSENBERGERDORFFVONX', firstName: 'HUBERT' }),
      new Date('2026-01-01'),
    );
    assert.deepEqual(long?.namesTruncated, { first_name: false, last_name: true });
    assert.equal(
      namesMatch(
        'Wolfeschlegelsteinhausenbergerdorffvonxyz',
        'Wolfeschlegelsteinhausenbergerdorffvonx',
        true,
      ),
      true,
    );
    const cutFirst = readMrz(
      td3Mrz({ lastName: 'CURIE', firstName: 'MARIESALOMEAVECUNTRESLONGPRENOMXX' }),
      new Date('2026-01-01'),
    );
    assert.deepEqual(cutFirst?.namesTruncated, { first_name: true, last_name: false });
  });

  test('read by OCR, names that differ or are missing leave the comparison to a person; a wrong birth date rejects', () => {
    const ocr = { truncated: whole, ocr: true };
    assert.deepEqual(compareWithPerson(info('Jeans', 'Dupont'), person, ocr), {
      verdict: null,
      mismatches: [],
      uncertain: ['first_name'],
    });
    assert.deepEqual(compareWithPerson(info(null, 'Dupont'), person, ocr).uncertain, ['first_name']);
    assert.equal(compareWithPerson(info('Jean', 'Dupont'), person, ocr).verdict, 'approved');
    assert.deepEqual(compareWithPerson(info('Jeans', 'Dupont', '1981-01-01'), person, ocr), {
      verdict: 'rejected',
      mismatches: ['birth_date'],
      uncertain: ['first_name'],
    });
    // read from text (typed as written), a different name is a mismatch
    assert.equal(
      compareWithPerson(info('Jeans', 'Dupont'), person, { truncated: whole, ocr: false }).verdict,
      'rejected',
    );
  });
});
