/**
 * The portal's closing page offers one download per signed document: two documents of the same name
 * (one template signed twice) are told apart by their signer, or by when they were signed
 * (web/portal/signed-documents.ts). Their buttons read the same before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { signedDocumentDetails } from '../web/portal/signed-documents.ts';

const signed = (id: string, document_name: string, signer: string, signed_at: string) => ({
  id,
  signature: { document_name, signer: { name: signer }, signed_at },
});

test('a name no other document shares has no detail', () => {
  const details = signedDocumentDetails(
    [
      signed('a', 'Engagement letter', 'Ada Lovelace', '2026-12-01T10:00:00Z'),
      signed('b', 'Mandate', 'Ada Lovelace', '2026-12-01T11:00:00Z'),
    ],
    'en',
  );
  assert.equal(details.size, 0);
});

test('one template signed by two people: each button names its signer', () => {
  const details = signedDocumentDetails(
    [
      signed('a', 'Engagement letter', 'Ada Lovelace', '2026-12-01T10:00:00Z'),
      signed('b', 'Engagement letter', 'Alan Turing', '2026-12-01T11:00:00Z'),
    ],
    'en',
  );
  assert.deepEqual(Object.fromEntries(details), { a: 'Ada Lovelace', b: 'Alan Turing' });
});

test('one template signed twice by one person: each button says when, in the page language', () => {
  const details = signedDocumentDetails(
    [
      signed('a', 'Engagement letter', 'Ada Lovelace', '2026-12-01T10:00:00Z'),
      signed('b', 'Engagement letter', 'Ada Lovelace', '2026-12-02T11:00:00Z'),
    ],
    'fr',
  );
  assert.notEqual(details.get('a'), details.get('b'));
  assert.match(details.get('a') ?? '', /1 décembre 2026/);
  assert.match(details.get('b') ?? '', /2 décembre 2026/);
});
