import assert from 'node:assert/strict';
import { test } from 'node:test';
import { problemMessage } from '../web/console/api/problem-message.ts';

const msg = (b: unknown, fallback: string) => ({ message: problemMessage(b, fallback) });

/**
 * The console shows a refused call's message (web/console/api/problem-message.ts): the server's message, with
 * its first detail when that adds something.
 */

const body = (message: string, details: { path: string; message: string }[]) => ({
  status_code: 400,
  code: 'BAD_REQUEST',
  message,
  details,
});

test('a message that names its fields is shown alone: the first detail would say it again', () => {
  // the answer of an eKYC refused for two missing fields
  const p = msg(
    body(
      'The individual has no birth_date, address.country: eKYC needs them; set them on the individual first',
      [
        {
          path: 'birth_date',
          message: 'The individual has no birth_date: eKYC needs it; set it on the individual first',
        },
        {
          path: 'address.country',
          message: 'The individual has no address.country: eKYC needs it; set it on the individual first',
        },
      ],
    ),
    'Bad Request',
  );
  assert.equal(
    p.message,
    'The individual has no birth_date, address.country: eKYC needs them; set them on the individual first',
  );
});

test('a generic message gets its first detail; no body, the status text', () => {
  const p = msg(
    body('The body does not match the schema', [{ path: 'name', message: 'name must be a string' }]),
    'x',
  );
  assert.equal(p.message, 'The body does not match the schema: name must be a string');
  assert.equal(msg(null, 'Bad Gateway').message, 'Bad Gateway');
  assert.equal(msg(body('Same words', [{ path: 'a', message: 'Same words' }]), 'x').message, 'Same words');
});
