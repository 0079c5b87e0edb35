import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadUnConsolidated } from '../../src/screening/lists/un-consolidated.ts';
import { readRef } from './reference.ts';

describe('UN consolidated list loader', () => {
  test('loads 730 individuals and 273 entities', () => {
    const r = loadUnConsolidated(readRef('sanctions', 'un', 'consolidated.xml'));
    assert.equal(r.entities.filter((e) => e.kind === 'person').length, 730);
    assert.equal(r.entities.filter((e) => e.kind === 'organisation').length, 273);
    assert.equal(r.malformed, 0);
    assert.equal(r.source, 'un_sc');
    assert.equal(r.published, '2026-02-27');
    assert.match(r.version, /^2026-02-27\/sha256:[0-9a-f]{12}$/);
    const saddam = r.entities.find((e) => e.id === 'IQi.001')!;
    assert.equal(saddam.name, 'SADDAM HUSSEIN AL-TIKRITI');
    assert.deepEqual(saddam.birth_dates, ['1937-04-28']);
    assert.deepEqual(saddam.nationalities, ['IQ']);
    assert.deepEqual(saddam.programs, ['Iraq']);
    assert.ok(saddam.aliases.some((a) => a.name === 'صدام حسين التكريتي' && a.strength === 'strong'));
    assert.ok(saddam.aliases.some((a) => a.name === 'Abu Ali' && a.strength === 'weak'));
    const badege = r.entities.find((e) => e.id === 'CDi.001')!;
    assert.deepEqual(badege.birth_dates, ['1971']);
    // a birth date given only as a note ("Nov. 1973"): its year; a Hijri note adds nothing
    assert.deepEqual(r.entities.find((e) => e.id === 'CDi.004')?.birth_dates, ['1973']);
    assert.deepEqual(r.entities.find((e) => e.id === 'QDi.291')?.birth_dates, ['1982-04-19', '1982-04-18']);
    assert.equal(badege.gender, 'male');
    assert.deepEqual(badege.nationalities, ['CD']);
    const adf = r.entities.find((e) => e.id === 'CDe.001')!;
    assert.ok(adf.aliases.some((a) => a.name === 'Allied Democratic Forces' && a.strength === 'strong'));
    assert.ok(r.entities.some((e) => e.identifiers.some((i) => /Passport/.test(i.type))));
    // an alias field of several spellings is several names; a bracket of letters is the name's
    // script, a passport note is no name (walk: "Jawad Rahiqi" found nothing)
    const aliases = (id: string) => r.entities.find((e) => e.id === id)?.aliases.map((a) => a.name);
    for (const name of ['Javad Rahigi', 'Jawad Rahigi', 'Jawad Rahiqi'])
      assert.ok(aliases('IRi.031')?.includes(name), `${name}: ${aliases('IRi.031')}`);
    assert.ok(!aliases('IRi.031')?.some((a) => a.includes(';')));
    assert.ok(aliases('KPi.035')?.includes('Jin Tiesan'));
    assert.ok(aliases('KPi.035')?.includes('金铁三'));
    const hadad = aliases('LYi.019') ?? [];
    assert.ok(hadad.includes('Safia Farkash Mohammed Al-Hadad'), String(hadad));
    assert.ok(!hadad.some((a) => /passport|born/i.test(a)), String(hadad));
    assert.ok(r.entities.every((e) => e.aliases.every((a) => !a.name.includes(';'))));
  });

  test('malformed records and broken XML are reported, never fatal', () => {
    const xml = `<?xml version="1.0"?><CONSOLIDATED_LIST dateGenerated="2020-01-02T00:00:00Z">
      <INDIVIDUALS>
        <INDIVIDUAL><FIRST_NAME>JOHN</FIRST_NAME><SECOND_NAME>DOE</SECOND_NAME><REFERENCE_NUMBER>XXi.001</REFERENCE_NUMBER>
          <INDIVIDUAL_ALIAS><QUALITY>Low</QUALITY><ALIAS_NAME>JD</ALIAS_NAME></INDIVIDUAL_ALIAS>
          <INDIVIDUAL_DATE_OF_BIRTH><TYPE_OF_DATE>BETWEEN</TYPE_OF_DATE><FROM_YEAR>1950</FROM_YEAR><TO_YEAR>1952</TO_YEAR></INDIVIDUAL_DATE_OF_BIRTH>
          <INDIVIDUAL_DOCUMENT><TYPE_OF_DOCUMENT>Passport</TYPE_OF_DOCUMENT><NUMBER>A123456</NUMBER></INDIVIDUAL_DOCUMENT>
        </INDIVIDUAL>
        <INDIVIDUAL><FIRST_NAME>NO REFERENCE</FIRST_NAME></INDIVIDUAL>
      </INDIVIDUALS>
      <ENTITIES><ENTITY><REFERENCE_NUMBER>XXe.001</REFERENCE_NUMBER></ENTITY></ENTITIES>
    </CONSOLIDATED_LIST>`;
    const r = loadUnConsolidated(xml);
    assert.equal(r.entities.length, 1);
    assert.equal(r.malformed, 2);
    assert.equal(r.errors.length, 2);
    assert.equal(r.published, '2020-01-02');
    const e = r.entities[0];
    assert.deepEqual(e.birth_dates, ['1950', '1951', '1952']);
    assert.deepEqual(e.aliases, [{ name: 'JD', strength: 'weak' }]);
    assert.deepEqual(e.identifiers, [{ type: 'Passport', value: 'A123456' }]);

    const broken = loadUnConsolidated('this is not xml at all');
    assert.equal(broken.entities.length, 0);
    assert.ok(broken.malformed >= 1);
  });
});
