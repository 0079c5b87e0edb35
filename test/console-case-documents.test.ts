/**
 * The case page's document helpers (web/console/features/case/document-data.ts): a file's type from
 * its first bytes (GET /v1/files/{id} sends none), and a check's extracted data and criteria as the
 * documents tab lists them, on the shapes the API answers.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { criteria, flattenInformation, sniffType } from '../web/console/features/case/document-data.ts';
import { documentName, safeFileName } from '../web/console/features/case/document-name.ts';

describe('case page documents', () => {
  test('a document name as a file name: no slash or character a file system refuses', () => {
    assert.equal(safeFileName('Case report (Europe/Paris)'), 'Case report (Europe-Paris)');
    assert.equal(
      safeFileName('Rapport du dossier (America/Argentina/Buenos_Aires)'),
      'Rapport du dossier (America-Argentina-Buenos_Aires)',
    );
    assert.equal(safeFileName('Kbis: "extrait" <2024>?'), 'Kbis- -extrait- -2024');
    assert.equal(safeFileName('a\\b\tc\u0000d|e*f'), 'a-b-c-d-e-f');
    assert.equal(safeFileName('../../etc/passwd'), 'etc-passwd');
    assert.equal(safeFileName('  Proof   of address  '), 'Proof of address');
    assert.equal(safeFileName('///'), 'document');
    assert.equal(safeFileName('x'.repeat(300)).length, 150);
  });

  test('file types from the first bytes: PDF, JPEG, PNG, WebP, TIFF, HEIC, anything else', () => {
    const head = (b: Buffer) => new Uint8Array(b.subarray(0, 16));
    assert.equal(sniffType(head(Buffer.from('%PDF-1.4\n%\xe2\xe3', 'latin1'))), 'application/pdf');
    assert.equal(sniffType(head(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))), 'image/jpeg');
    assert.equal(sniffType(head(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'))), 'image/png');
    assert.equal(sniffType(head(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))), 'image/webp');
    assert.equal(sniffType(head(Buffer.from([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]))), 'image/tiff');
    assert.equal(sniffType(head(Buffer.from('\0\0\0\x18ftypheic', 'latin1'))), 'image/heic');
    assert.equal(sniffType(head(Buffer.from('hello'))), 'application/octet-stream');
  });

  test('extracted information: leaves with their paths, file ids and empty values left out', () => {
    const info = {
      expiration_date: null,
      front_file_id: 'f1',
      first_name: 'Ada',
      nationalities: ['FR', 'GB'],
      document_analysis: {
        model: 'registration_certificate',
        name: 'Acme',
        registration_number: '552100554',
        city: '',
      },
    };
    assert.deepEqual(flattenInformation(info), [
      ['first_name', 'Ada'],
      ['nationalities', 'FR, GB'],
      ['document_analysis.name', 'Acme'],
      ['document_analysis.registration_number', '552100554'],
    ]);
    assert.deepEqual(flattenInformation(null), []);
  });

  test("documents' names in French: the server's kinds, ID document types, built-in document types; others as written", () => {
    assert.equal(documentName('ID document (passport)', 'fr'), 'Pièce d’identité (passeport)');
    assert.equal(documentName('ID document', 'fr'), 'Pièce d’identité');
    assert.equal(documentName('Electronic signature (nda)', 'fr'), 'Signature électronique (nda)');
    assert.equal(documentName('Case report (Europe/Paris)', 'fr'), 'Rapport du dossier (Europe/Paris)');
    assert.equal(documentName('Registration certificate', 'fr'), 'Extrait d’immatriculation');
    assert.equal(documentName('Lease contract', 'fr'), 'Lease contract');
    assert.equal(documentName('ID document (passport)', 'en'), 'ID document (passport)');
  });

  test('criteria: objects with a result (expected, received), bare verdicts, not their inner fields', () => {
    const document = {
      document_analysis: {
        model: 'registration_certificate',
        name_matching: { result: 'approved', expected: 'Acme', received: 'ACME' },
        valid_age_in_days: { result: null, expected: null, received: null },
      },
    };
    assert.deepEqual(criteria(document), [
      { path: 'document_analysis.name_matching', result: 'approved', expected: 'Acme', received: 'ACME' },
      { path: 'document_analysis.valid_age_in_days', result: null },
    ]);
    const idDocument = { document: { data_validation: null, data_comparison: 'approved' } };
    assert.deepEqual(criteria(idDocument), [
      { path: 'document.data_validation', result: null },
      { path: 'document.data_comparison', result: 'approved' },
    ]);
  });
});
