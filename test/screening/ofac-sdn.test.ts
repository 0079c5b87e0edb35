import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emptyEntity } from '../../src/screening/entity.ts';
import { applyOfacRemarks, loadOfacSdn } from '../../src/screening/lists/ofac-sdn.ts';
import { ofacFiles } from './reference.ts';

describe('OFAC SDN legacy CSV loader', () => {
  test('loads the full 2019 list', () => {
    const r = loadOfacSdn(ofacFiles('ofac-sdn-2019'));
    // The data README says 7,378 entries (that is `wc -l`: sdn.csv has no trailing newline); the file
    // holds 7,379 well-formed rows with 7,379 distinct ent_nums, which is what a correct CSV reader sees.
    assert.equal(r.entities.length, 7379);
    assert.equal(new Set(r.entities.map((e) => e.id)).size, 7379);
    assert.equal(r.malformed, 0);
    assert.equal(r.source, 'ofac_sdn');
    assert.match(r.version, /^sha256:[0-9a-f]{12}$/);
    const kinds = (k: string) => r.entities.filter((e) => e.kind === k).length;
    assert.equal(kinds('person'), 3845);
    assert.equal(kinds('vessel'), 323);
    assert.equal(kinds('aircraft'), 217);
    assert.equal(kinds('organisation'), 2994);
    const malkevich = r.entities.find((e) => e.id === '26235')!;
    assert.equal(malkevich.name, 'MALKEVICH, Alexander Aleksandrovich');
    assert.deepEqual(malkevich.birth_dates, ['1975-06-14']);
    assert.equal(malkevich.gender, 'male');
    assert.ok(malkevich.countries.includes('RU'));
    assert.ok(malkevich.identifiers.some((i) => i.type === 'Passport' && i.value === '717637093'));
    assert.ok(malkevich.identifiers.some((i) => i.type === 'National ID No.' && i.value === '781005202108'));
    // Version is content-derived and stable.
    assert.equal(loadOfacSdn(ofacFiles('ofac-sdn-2019')).version, r.version);
  });

  test('parses remarks, aliases, addresses and programs of the sample rows', () => {
    const r = loadOfacSdn(ofacFiles('ofac-sample'));
    assert.equal(r.entities.length, 17);
    assert.equal(r.malformed, 0);
    const logan = r.entities.find((e) => e.id === '10278')!;
    assert.equal(logan.kind, 'person');
    assert.deepEqual(logan.birth_dates, ['1963-07-28']);
    assert.deepEqual(logan.aliases, [{ name: 'BURTON BURGESS', strength: 'weak' }]);
    assert.deepEqual(
      logan.identifiers.map((i) => i.type),
      ['Passport', 'SSN'],
    );
    assert.deepEqual(logan.countries, ['BZ']);
    const iami = r.entities.find((e) => e.id === '11195')!;
    assert.equal(iami.kind, 'organisation');
    assert.deepEqual(iami.programs, ['NPWMD', 'IFSR', 'IRAN-CON-ARMS-EO']);
    assert.ok(
      iami.aliases.some((a) => a.name === 'IRAN AIRCRAFT MANUFACTURING COMPANY' && a.strength === 'strong'),
    );
    assert.ok(iami.aliases.some((a) => a.name === 'HESA' && a.strength === 'weak'));
    assert.ok(iami.identifiers.some((i) => i.type === 'National ID No.' && i.value === '10100722073'));
    assert.ok(iami.addresses.length >= 1);
    const lifshits = r.entities.find((e) => e.id === '29702')!;
    assert.deepEqual(lifshits.nationalities, ['RU']);
    assert.equal(lifshits.gender, 'male');
    const vessel = r.entities.find((e) => e.id === '40716')!;
    assert.equal(vessel.kind, 'vessel');
    assert.deepEqual(vessel.identifiers, [{ type: 'IMO', value: '9486910' }]);
    assert.equal(r.entities.find((e) => e.id === '20540')!.kind, 'aircraft');
    // sdn_comments.csv continues the remarks of 45430-style long entries; sample comments exist for 33151.
    const suex = r.entities.find((e) => e.id === '33151')!;
    assert.ok(suex.aliases.some((a) => a.name === 'SUCCESSFUL EXCHANGE'));
    // Rows in alt/add that point to entries outside the sample are reported, not fatal.
    assert.ok(r.errors.some((e) => /ent_num not in sdn.csv/.test(e)));
  });

  test('remarks: date forms, ranges, nationality, citizen, gender', () => {
    const e = emptyEntity('ofac_sdn', '1', 'person', 'X, Y');
    applyOfacRemarks(
      e,
      "DOB 01 Jan 1960; alt. DOB circa 1955; alt. DOB 1970 to 1972; DOB Mar 1980; nationality Korea, North; citizen Iran; Gender Female; Cedula No. 12345678 (Colombia); Telephone No. 555 1234; a.k.a. 'ABU-'UMAR'.",
    );
    assert.deepEqual(e.birth_dates, ['1960-01-01', '1955', '1970', '1971', '1972', '1980']);
    assert.deepEqual(e.nationalities, ['KP', 'IR']);
    assert.equal(e.gender, 'female');
    assert.deepEqual(e.identifiers, [{ type: 'Cedula No.', value: '12345678' }]);
    assert.deepEqual(e.aliases, [{ name: "ABU-'UMAR", strength: 'weak' }]);
  });

  test('malformed rows are counted and reported, never fatal', () => {
    const sdn = [
      '1,"GOOD, Person","individual","SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,"DOB 1960."',
      '2,"TOO FEW FIELDS","individual"',
      'abc,"BAD ID",-0- ,"SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ',
      '3,-0- ,-0- ,"SDGT",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ',
      '4,"ORG LTD",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ',
      '1,"DUPLICATE",-0- ,"CUBA",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ',
    ].join('\n');
    const alt = '1,10,"aka","GOOD, Alias",-0- \n1,11\n99,12,"aka","ORPHAN",-0- \n';
    const add = '4,20,"Street 1","Havana","Cuba",-0- \nbroken\n';
    const r = loadOfacSdn({ sdn, alt, add });
    assert.deepEqual(
      r.entities.map((e) => e.id),
      ['1', '4'],
    );
    assert.equal(r.malformed, 6);
    assert.ok(r.errors.length >= 5);
    assert.deepEqual(r.entities[0].aliases, [{ name: 'GOOD, Alias', strength: 'strong' }]);
    assert.deepEqual(r.entities[1].countries, ['CU']);
    // Completely unparsable input still returns a result.
    const garbage = loadOfacSdn({ sdn: '"unterminated,\n\u0000\u0001' });
    assert.equal(garbage.entities.length, 0);
    assert.ok(garbage.malformed >= 1);
  });
});
