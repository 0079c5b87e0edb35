import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countryName } from '../web/console/features/display-names.ts';

describe('console: country codes by their names', () => {
  test("an ISO code is named in the console's language, the code kept beside it; anything else as given", () => {
    assert.equal(countryName('DE', 'en'), 'Germany (DE)');
    assert.equal(countryName('DE', 'fr'), 'Allemagne (DE)');
    assert.equal(countryName('IR', 'en'), 'Iran (IR)');
    // not a code: a list's free-text country, a lower-case or three-letter value
    for (const given of ['Iran', 'de', 'DEU', '']) assert.equal(countryName(given, 'en'), given);
    // a well-formed code no one uses has no name: the code alone
    assert.equal(countryName('QQ', 'en'), 'QQ');
  });
});
