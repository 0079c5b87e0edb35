/**
 * The portal page's dictionaries (web/portal/messages*.ts): every language keeps each string's
 * placeholders exactly (a `{name}` lost or misspelt would show as is), and the page has a dictionary
 * for each of the portals' languages (src/client-portals/schemas.ts), English first.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { PORTAL_LANGUAGES } from '../src/client-portals/schemas.ts';
import { API_ERROR_FALLBACK, API_ERROR_KEYS, apiErrorKey, apiErrorText } from '../web/portal/api-errors.ts';
import { LANGUAGES, type Language, MESSAGES, type Messages } from '../web/portal/messages.ts';
import { fill, placeholdersOf } from '../web/shared/i18n.ts';

const placeholders = placeholdersOf;

test("the page has a dictionary for each of the portals' languages, English first", () => {
  assert.equal(LANGUAGES[0], 'en');
  assert.deepEqual([...LANGUAGES].sort(), [...PORTAL_LANGUAGES].sort());
});

test("every dictionary has English's keys, each string with English's placeholders, none empty", () => {
  const en = MESSAGES.en;
  for (const lang of LANGUAGES) {
    const dict = MESSAGES[lang];
    assert.deepEqual(Object.keys(dict).sort(), Object.keys(en).sort(), lang);
    for (const [key, text] of Object.entries(en)) {
      const translated = dict[key as keyof typeof en];
      assert.ok(translated.trim(), `${lang}.${key} is empty`);
      assert.deepEqual(placeholders(translated), placeholders(text), `${lang}.${key}: ${translated}`);
    }
  }
});

test('plural forms: each language picks its form for the number, and no plural is left unparsed', () => {
  assert.equal(
    fill(MESSAGES.en.codeWrong, { n: 1 }, 'en'),
    'This code is not the right one: 1 attempt left.',
  );
  assert.equal(
    fill(MESSAGES.en.codeWrong, { n: 4 }, 'en'),
    'This code is not the right one: 4 attempts left.',
  );
  // French counts 0 and 1 as singular
  assert.equal(fill(MESSAGES.fr.codeWrong, { n: 0 }, 'fr'), 'Ce code n’est pas le bon : 0 essai restant.');
  assert.equal(fill(MESSAGES.fr.codeWrong, { n: 2 }, 'fr'), 'Ce code n’est pas le bon : 2 essais restants.');
  assert.equal(fill(MESSAGES.fr.progressSummary, { done: 2, total: 3 }, 'fr'), '2 sur 3 terminés');
  assert.equal(fill(MESSAGES.es.progressSummary, { done: 1, total: 3 }, 'es'), '1 de 3 completado');
  assert.equal(
    fill('{n, plural, =0 {none} one {# one} few {# few} many {# many} other {# other}}', { n: 22 }, 'pl'),
    '22 few',
  );
  for (const lang of LANGUAGES) {
    for (const [key, text] of Object.entries(MESSAGES[lang])) {
      const values = Object.fromEntries(placeholders(text).map((p) => [p, p === 'names' ? 'a.png' : 2]));
      for (const n of [0, 1, 2, 5, 22]) {
        for (const p of placeholders(text)) if (p !== 'names' && p !== 'time') values[p] = n;
        const out = fill(text, values, lang);
        assert.ok(!/[{}]/.test(out), `${lang}.${key} for ${n}: ${out}`);
      }
    }
  }
});

// ---- the API's errors, said by code (web/portal/api-errors.ts) ----

/** The codes the portal's API can answer with: those its modules name, and the per-status ones. */
function serverErrorCodes(): string[] {
  const dirs = ['src/portal', 'src/client-portals', 'src/checks/types/electronic_signature'];
  const named = dirs.flatMap((dir) =>
    fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [
        ...fs.readFileSync(path.join(dir, f), 'utf8').matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g),
      ])
      .map((m) => m[1]),
  );
  const byStatus = [
    ...fs.readFileSync('src/http/errors.ts', 'utf8').matchAll(/^\s+\d{3}: '([A-Z_]+)',$/gm),
  ].map((m) => m[1]);
  assert.ok(named.includes('PORTAL_LINK_REVOKED') && byStatus.includes('PAYLOAD_TOO_LARGE'));
  return [...new Set([...named, ...byStatus])];
}
/** A failed request as web/shared/http.ts reports it (its HttpError needs the DOM to load). */
const httpError = (status: number, message: string, body: unknown) =>
  Object.assign(new Error(message), { status, body });

/** The page's translator without React (web/portal/i18n.tsx is JSX, which the test runner does not load). */
const translator = (lang: Language) => (key: keyof Messages) => MESSAGES[lang][key];

/**
 * Per-status codes the page never needs its own text for: the generic one says them
 * (PRECONDITION_FAILED: only /v1 writes read If-Match, never the portal's).
 */
const GENERIC_ON_PURPOSE = ['UNAUTHORIZED', 'FORBIDDEN', 'CONFLICT', 'PRECONDITION_FAILED'];

test('every error code the portal API answers has its text, and the page knows no code the API lacks', () => {
  const codes = serverErrorCodes();
  for (const code of codes) {
    if (GENERIC_ON_PURPOSE.includes(code)) continue;
    assert.ok(Object.hasOwn(API_ERROR_KEYS, code), `${code} has no text in web/portal/api-errors.ts`);
  }
  for (const code of Object.keys(API_ERROR_KEYS)) assert.ok(codes.includes(code), `${code}: not an API code`);
});

test('every language has every error text, translated (not the English one)', () => {
  const keys = [...new Set([...Object.values(API_ERROR_KEYS), API_ERROR_FALLBACK, 'networkError' as const])];
  for (const lang of LANGUAGES) {
    for (const key of keys as (keyof Messages)[]) {
      const text = MESSAGES[lang][key];
      assert.ok(typeof text === 'string' && text.trim(), `${lang}.${key} is missing or empty`);
      if (lang !== 'en') assert.notEqual(text, MESSAGES.en[key], `${lang}.${key} is the English text`);
    }
  }
});

test("an API error is said by its code in the page's language, never with the server's English message", () => {
  const revoked = httpError(401, 'This link was withdrawn: ask for a new one', {
    code: 'PORTAL_LINK_REVOKED',
    message: 'This link was withdrawn: ask for a new one',
  });
  const unknown = httpError(409, 'Something new the page has never heard of', {
    code: 'SOMETHING_NEW',
    message: 'Something new the page has never heard of',
  });
  const tooLarge = httpError(413, 'Request body is too large', {
    code: 'PAYLOAD_TOO_LARGE',
    message: 'x',
  });
  const noAnswer = httpError(0, 'network error', null);
  assert.equal(apiErrorKey(revoked), 'withdrawnText');
  // an expired link says it expired and nothing else (the text for other 401s hedges)
  const lapsed = httpError(401, 'This portal link has expired: ask for a new one', {
    code: 'PORTAL_LINK_EXPIRED',
    message: 'This portal link has expired: ask for a new one',
  });
  assert.equal(apiErrorKey(lapsed), 'linkExpiredText');
  for (const lang of LANGUAGES)
    assert.notEqual(apiErrorText(translator(lang), lapsed), MESSAGES[lang].expiredText);
  assert.doesNotMatch(MESSAGES.en.linkExpiredText, /replaced/);
  assert.equal(apiErrorKey(tooLarge), 'errorTooLarge');
  assert.equal(apiErrorKey(unknown), API_ERROR_FALLBACK);
  assert.equal(apiErrorKey(httpError(500, 'HTTP 500', 'not json')), API_ERROR_FALLBACK);
  assert.equal(apiErrorKey(new TypeError('x is undefined')), API_ERROR_FALLBACK);
  assert.equal(apiErrorKey(noAnswer), 'networkError');
  assert.equal(apiErrorText(translator('fr'), revoked), MESSAGES.fr.withdrawnText);
  assert.match(apiErrorText(translator('fr'), revoked), /^Ce lien a été retiré/);
  for (const lang of LANGUAGES) {
    const t = translator(lang);
    for (const err of [revoked, unknown, tooLarge]) {
      const said = apiErrorText(t, err);
      assert.ok(said.trim(), lang);
      assert.ok(!said.includes(err.message), `${lang}: the server's message shown: ${said}`);
    }
    assert.equal(apiErrorText(t, unknown), MESSAGES[lang].errorGeneric, lang);
  }
});
