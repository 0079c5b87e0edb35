import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mrzFromOcrText } from '../src/checks/types/id_document/mrz-ocr.ts';
import { readMrz } from '../src/checks/types/id_document/mrz-reader.ts';

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
