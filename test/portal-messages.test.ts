/**
 * The portal page's dictionaries (web/portal/messages*.ts): every language keeps each string's
 * placeholders exactly (a `{name}` lost or misspelt would show as is), and the page has a dictionary
 * for each of the portals' languages (src/client-portals/schemas.ts), English first.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PORTAL_LANGUAGES } from '../src/client-portals/schemas.ts';
import { LANGUAGES, MESSAGES } from '../web/portal/messages.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

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
