import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadEuFsf } from '../../src/screening/lists/eu-fsf.ts';
import { loadFtm } from '../../src/screening/lists/ftm.ts';
import { loadUkHmt } from '../../src/screening/lists/uk-hmt.ts';
import { fcdoUkCsv } from '../helpers/uk-sanctions-list.ts';
import { readRef } from './reference.ts';

const EU_HEADER = [
  'fileGenerationDate',
  'Entity_LogicalId',
  'Entity_SubjectType',
  'Entity_Regulation_Programme',
  'NameAlias_LastName',
  'NameAlias_FirstName',
  'NameAlias_MiddleName',
  'NameAlias_WholeName',
  'NameAlias_Gender',
  'BirthDate_BirthDate',
  'BirthDate_Year',
  'Citizenship_CountryIso2Code',
  'Address_CountryIso2Code',
  'Identification_Number',
  'Identification_TypeDescription',
].join(';');

describe('EU financial sanctions (FSF) CSV loader', () => {
  test('groups rows by Entity_LogicalId', () => {
    const csv = [
      EU_HEADER,
      '2024-05-01;13;person;IRQ;Hussein Al-Tikriti;Saddam;;Saddam Hussein Al-Tikriti;M;1937-04-28;;IQ;;;',
      '2024-05-01;13;person;IRQ;;;;Abu Ali;;;;;;;',
      '2024-05-01;13;person;IRQ;;;;Saddam Hussein Al-Tikriti;;;;;IQ;123456;Passport',
      '2024-05-01;20;enterprise;RUS;;;;OOO Romashka;;;;;RU;7701234567;Tax number',
      '2024-05-01;21;person;RUS;Ivanov;Ivan;Ivanovich;;M;;1970;RU;;;',
      '2024-05-01;;person;RUS;;;;No Id;;;;;;;',
      '2024-05-01;22;person;RUS;only;three',
    ].join('\n');
    const r = loadEuFsf(csv);
    assert.equal(r.source, 'eu_fsf');
    assert.equal(r.published, '2024-05-01');
    assert.deepEqual(
      r.entities.map((e) => [e.id, e.kind, e.name]),
      [
        ['13', 'person', 'Saddam Hussein Al-Tikriti'],
        ['20', 'organisation', 'OOO Romashka'],
        ['21', 'person', 'Ivan Ivanovich Ivanov'],
      ],
    );
    const s = r.entities[0];
    assert.deepEqual(s.aliases, [{ name: 'Abu Ali', strength: 'strong' }]);
    assert.deepEqual(s.birth_dates, ['1937-04-28']);
    assert.deepEqual(s.nationalities, ['IQ']);
    assert.deepEqual(s.countries, ['IQ']);
    assert.equal(s.gender, 'male');
    assert.deepEqual(s.programs, ['IRQ']);
    assert.deepEqual(s.identifiers, [{ type: 'Passport', value: '123456' }]);
    assert.deepEqual(r.entities[2].birth_dates, ['1970']);
    assert.equal(r.malformed, 2);
    assert.equal(r.errors.length, 2);
  });

  test('a file without the expected header is one malformed record', () => {
    const r = loadEuFsf('a;b;c\n1;2;3');
    assert.equal(r.entities.length, 0);
    assert.equal(r.malformed, 1);
  });
});

const UK_HEADER =
  'Name 6,Name 1,Name 2,Name 3,Name 4,Name 5,Title,Name Non-Latin Script,DOB,Town of Birth,Country of Birth,Nationality,Passport Number,National Identification Number,Address 1,Post/Zip Code,Country,Group Type,Name type,Alias strength,Regime,Group ID';

describe('UK sanctions list CSV loader', () => {
  test('reads the report-date preamble, groups by Group ID, maps alias strength', () => {
    const csv = [
      'Report Date: 01/03/2026',
      UK_HEADER,
      'IVANOV,Ivan,Petrovich,,,,Mr,Иван Иванов,01/02/1965,Moscow,Russia,(1) Russia (2) Ukraine,770012345,,Lenina 1,101000,Russia,Individual,Primary name,,Russia,RUS0001',
      'IVANOFF,Ivan,,,,,,,00/00/1966,,,,,,,,,Individual,Alias,Weak,Russia,RUS0001',
      'IVANOV,Vanya,,,,,,,,,,,,,,,,Individual,Alias,Strong,Russia,RUS0001',
      'SEA STAR,,,,,,,,,,,,,,,,Panama,Ship,Primary name,,Iran,IRN0002',
      'ACME TRADING LLC,,,,,,,,,,,,,,,,,Entity,Primary name,,Russia,RUS0003',
      ',,,,,,,,,,,,,,,,,Entity,Primary name,,Russia,RUS0004',
      'SHORT,ROW',
    ].join('\n');
    const r = loadUkHmt(csv);
    assert.equal(r.source, 'uk_hmt');
    assert.equal(r.published, '2026-03-01');
    assert.deepEqual(
      r.entities.map((e) => [e.id, e.kind, e.name]),
      [
        ['RUS0001', 'person', 'IVANOV, Ivan Petrovich'],
        ['IRN0002', 'vessel', 'SEA STAR'],
        ['RUS0003', 'organisation', 'ACME TRADING LLC'],
      ],
    );
    const ivanov = r.entities[0];
    assert.deepEqual(ivanov.aliases, [
      { name: 'Иван Иванов', strength: 'strong' },
      { name: 'IVANOFF, Ivan', strength: 'weak' },
      { name: 'IVANOV, Vanya', strength: 'strong' },
    ]);
    assert.deepEqual(ivanov.birth_dates, ['1965-02-01', '1966']);
    assert.deepEqual(ivanov.nationalities, ['RU', 'UA']);
    assert.deepEqual(ivanov.identifiers, [{ type: 'Passport', value: '770012345' }]);
    assert.deepEqual(ivanov.programs, ['Russia']);
    assert.equal(r.malformed, 2);
  });
});

describe('UK Sanctions List CSV loader, current FCDO layout', () => {
  const REGIME = 'The Russia (Sanctions) (EU Exit) Regulations 2019';
  const csv = fcdoUkCsv('08-Oct-2026', [
    // An individual: primary name, a second line for a second address, a weak alias, a non-Latin name.
    {
      'Last Updated': '04/08/2026',
      'Unique ID': 'RUS0101',
      'OFSI Group ID': '15001',
      'Name 6': 'PETROVA',
      'Name 1': 'Anna',
      'Name 2': 'Sergeyevna',
      'Name type': 'Primary Name',
      'Name non-latin script': 'Анна Петрова',
      'Regime Name': REGIME,
      'Designation Type': 'Individual',
      'Address Line 1': 'Tverskaya 5',
      'Address Line 2': 'Moscow',
      'Address Postal Code': '125009',
      'Address Country': 'Russia',
      'Date Designated': '15/03/2022',
      'D.O.B': '12/05/1971',
      'Nationality(/ies)': 'Russia',
      'Passport number': '751234567',
      Gender: 'Female',
      'Country of birth': 'Russia',
      'UK Statement of Reasons': 'Member of a board, "as stated".',
    },
    {
      'Unique ID': 'RUS0101',
      'OFSI Group ID': '15001',
      'Name 6': 'PETROVA',
      'Name 1': 'Anna',
      'Name 2': 'Sergeyevna',
      'Name type': 'Primary Name',
      'Regime Name': REGIME,
      'Designation Type': 'Individual',
      'Address Line 1': 'Nevsky 10',
      'Address Line 2': 'Saint Petersburg',
      'Address Country': 'Russia',
    },
    {
      'Unique ID': 'RUS0101',
      'Name 6': 'PETROVA',
      'Name 1': 'Anya',
      'Name type': 'Alias',
      'Alias strength': 'Weak alias',
      'Regime Name': REGIME,
      'Designation Type': 'Individual',
    },
    // An entity whose OFSI Group ID is empty: the Unique ID is the key.
    {
      'Unique ID': 'RUS0102',
      'Name 6': 'NORTHERN STAR TRADING LLC',
      'Name type': 'Primary Name',
      'Regime Name': REGIME,
      'Designation Type': 'Entity',
      'Business registration number (s)': '(1) 1027700132195 (2) 7701234567',
      'Address Country': 'Russia',
    },
    {
      'Unique ID': 'RUS0102',
      'Name 6': 'OOO SEVERNAYA ZVEZDA',
      'Name type': 'Alias',
      'Regime Name': REGIME,
      'Designation Type': 'Entity',
    },
    // A ship, its IMO number as the file writes it.
    {
      'Unique ID': 'RUS0103',
      'Name 6': 'POLAR DAWN',
      'Name type': 'Primary Name',
      'Regime Name': REGIME,
      'Designation Type': 'Ship',
      'IMO number': 'IMO9123456',
      'Other Information': 'Oil tanker, carries Russian oil, "flag of convenience".',
    },
  ]);

  test('reads every entry, keyed by Unique ID, with names, kinds, dates, places and identifiers', () => {
    const r = loadUkHmt(csv);
    assert.equal(r.source, 'uk_hmt');
    assert.equal(r.published, '2026-10-08');
    assert.equal(r.malformed, 0);
    assert.deepEqual(
      r.entities.map((e) => [e.id, e.kind, e.name]),
      [
        ['RUS0101', 'person', 'PETROVA, Anna Sergeyevna'],
        ['RUS0102', 'organisation', 'NORTHERN STAR TRADING LLC'],
        ['RUS0103', 'vessel', 'POLAR DAWN'],
      ],
    );
    const [anna, star, ship] = r.entities;
    assert.deepEqual(anna.aliases, [
      { name: 'Анна Петрова', strength: 'strong' },
      { name: 'PETROVA, Anya', strength: 'weak' },
    ]);
    assert.deepEqual(anna.birth_dates, ['1971-05-12']);
    assert.deepEqual(anna.nationalities, ['RU']);
    assert.deepEqual(anna.countries, ['RU']);
    assert.deepEqual(anna.programs, [REGIME]);
    assert.deepEqual(anna.identifiers, [{ type: 'Passport', value: '751234567' }]);
    assert.deepEqual(anna.addresses, [
      'Tverskaya 5, Moscow, 125009, Russia',
      'Nevsky 10, Saint Petersburg, Russia',
    ]);
    assert.equal(anna.gender, 'female');
    assert.equal(anna.listed_on, '2022-03-15');
    assert.match(anna.remarks ?? '', /Member of a board/);
    assert.deepEqual(star.aliases, [{ name: 'OOO SEVERNAYA ZVEZDA', strength: 'strong' }]);
    assert.deepEqual(star.identifiers, [
      { type: 'Registration Number', value: '1027700132195' },
      { type: 'Registration Number', value: '7701234567' },
    ]);
    assert.deepEqual(ship.identifiers, [{ type: 'IMO', value: '9123456' }]);
  });
});

describe('FollowTheMoney JSON lines loader', () => {
  test('loads the shipped samples', () => {
    const t1 = loadFtm(readRef('sanctions', 'ftm-samples', 't1.ftm.jsonl'));
    assert.equal(t1.malformed, 0);
    assert.equal(t1.entities.length, 6); // 4 Person + 2 Organization, Address skipped
    const zala = loadFtm(readRef('sanctions', 'ftm-samples', 'zala.ftm.jsonl'));
    assert.equal(zala.malformed, 0);
    assert.equal(zala.entities.length, 17); // 6 Person + 11 Company
    const maria = zala.entities.find((e) => e.name === 'Maria Aleksandrovna Osetrova')!;
    assert.equal(maria.kind, 'person');
    assert.ok(maria.aliases.length > 3);
    assert.ok(maria.list_types.includes('sanction'));
    assert.ok(maria.programs.length > 0, 'Sanction.program attached to its entity');
    assert.ok(maria.countries.includes('RU'));
  });

  test('maps schemas, topics and properties; bad lines are counted', () => {
    const lines = [
      JSON.stringify({
        id: 'p1',
        schema: 'Person',
        properties: {
          name: ['Jane Roe'],
          alias: ['J. Roe'],
          weakAlias: ['JR'],
          birthDate: ['1970-05'],
          nationality: ['gb'],
          gender: ['female'],
          passportNumber: ['X1234567'],
          topics: ['role.pep', 'crime.fin'],
        },
      }),
      JSON.stringify({
        id: 'v1',
        schema: 'Vessel',
        properties: { name: ['Sea Dog'], imoNumber: ['IMO 1234567'] },
      }),
      JSON.stringify({ id: 'o1', schema: 'Ownership', properties: { owner: ['p1'] } }),
      JSON.stringify({
        id: 's1',
        schema: 'Sanction',
        properties: { entity: ['v1'], program: ['TEST-PROG'] },
      }),
      '{not json',
      JSON.stringify({ schema: 'Person', properties: { name: ['No Id'] } }),
      JSON.stringify({ id: 'p2', schema: 'Person', properties: {} }),
      '',
    ].join('\n');
    const r = loadFtm(lines, 'opensanctions');
    assert.equal(r.source, 'opensanctions');
    assert.equal(r.malformed, 3);
    assert.deepEqual(
      r.entities.map((e) => [e.id, e.kind]),
      [
        ['p1', 'person'],
        ['v1', 'vessel'],
      ],
    );
    const p = r.entities[0];
    assert.deepEqual(p.list_types, ['pep', 'warning']);
    assert.deepEqual(p.birth_dates, ['1970']);
    assert.deepEqual(p.nationalities, ['GB']);
    assert.equal(p.gender, 'female');
    assert.deepEqual(p.aliases, [
      { name: 'J. Roe', strength: 'strong' },
      { name: 'JR', strength: 'weak' },
    ]);
    assert.deepEqual(p.identifiers, [{ type: 'Passport', value: 'X1234567' }]);
    assert.deepEqual(r.entities[1].list_types, ['sanction']);
    assert.deepEqual(r.entities[1].programs, ['TEST-PROG']);
  });
});
