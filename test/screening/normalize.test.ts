import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { countryCode } from '../../src/screening/countries.ts';
import {
  DEFAULT_LEGAL_FORMS,
  legalFormsFromElfCsv,
  nameTokens,
  normalizeIdentifier,
  normalizeName,
  normalizeText,
} from '../../src/screening/normalize.ts';
import { readRef } from './reference.ts';

describe('normalisation', () => {
  test('diacritics, case and punctuation', () => {
    assert.equal(normalizeText('José MARÍA Peña-Nieto'), 'jose maria pena nieto');
    assert.equal(normalizeText('Müller, Jürgen'), 'muller jurgen');
    assert.equal(normalizeText("O'Brien & Sons"), 'obrien and sons');
    assert.equal(normalizeText('Çelik  Øster  Łódź'), 'celik oster lodz');
  });

  test('transliterates Cyrillic, Greek and Arabic', () => {
    assert.equal(normalizeName('Мария Александровна Осетрова', 'person'), 'mariya aleksandrovna osetrova');
    assert.equal(normalizeName('Εταιρία', 'org'), 'etairia');
    // Arabic script transliterates without vowels; it still gives a stable key for same-script queries.
    assert.deepEqual(nameTokens('صدام حسين', 'person'), ['sdm', 'hsyn']);
  });

  test('"LAST, First" becomes "first last"', () => {
    assert.equal(normalizeName('LOGAN MOREY, Elvis Angus', 'person'), 'elvis angus logan morey');
    assert.equal(normalizeName('BIN LADEN, Osama', 'person'), 'osama laden');
    // Organisation names keep their commas as punctuation, not as name order.
    assert.equal(
      normalizeName('AIRCRAFT, AVIONICS, PARTS & SUPPORT LTD.', 'org'),
      'aircraft avionics parts support',
    );
  });

  test('person particles are dropped, the Arabic article is glued to the next token', () => {
    assert.deepEqual(nameTokens('Juan de la Cruz', 'person'), ['juan', 'cruz']);
    assert.deepEqual(nameTokens('SADDAM HUSSEIN AL-TIKRITI', 'person'), ['saddam', 'hussein', 'altikriti']);
    assert.deepEqual(nameTokens('Saddam Hussein al Tikriti', 'person'), ['saddam', 'hussein', 'altikriti']);
    assert.deepEqual(nameTokens('Dr. Ayman al-Zawahiri', 'person'), ['ayman', 'alzawahiri']);
  });

  test('ben is a particle between names (Latin and Cyrillic), a given name first; transliterated particles', () => {
    assert.deepEqual(nameTokens('Habib Ben Ahmed al-Loubiri', 'person'), ['habib', 'ahmed', 'alloubiri']);
    assert.deepEqual(nameTokens('Усама бен Ладен', 'person'), ['usama', 'laden']);
    assert.deepEqual(nameTokens('Усама бин Ладен', 'person'), ['usama', 'laden']);
    assert.deepEqual(nameTokens('Ben Smith', 'person'), ['ben', 'smith']);
    assert.deepEqual(nameTokens('SMITH, Ben', 'person'), ['ben', 'smith']);
    assert.deepEqual(nameTokens('Mr Ben Smith', 'person'), ['ben', 'smith']);
    assert.deepEqual(nameTokens('Вернер фон Браун', 'person'), ['verner', 'braun']);
    // Arabic script is transliterated without vowels: بن → bn, like bin
    assert.deepEqual(nameTokens('أسامة بن لادن', 'person'), nameTokens('أسامة لادن', 'person'));
    // organisation names keep them
    assert.deepEqual(nameTokens('Ben Ali Trading', 'org'), ['ben', 'ali', 'trading']);
  });

  test('ould and Turkic patronymic particles are dropped between names only, in Latin, Cyrillic and Arabic script', () => {
    assert.deepEqual(nameTokens('MOHAMEDOU, Saleck Ould Cheikh', 'person'), [
      'saleck',
      'cheikh',
      'mohamedou',
    ]);
    assert.deepEqual(nameTokens('OULD ALI, Mohamed Ould Ahmed', 'person'), ['mohamed', 'ahmed', 'ali']);
    assert.deepEqual(nameTokens('Ilham Heydar oglu Aliyev', 'person'), ['ilham', 'heydar', 'aliyev']);
    assert.deepEqual(nameTokens('Ильхам Гейдар оглы Алиев', 'person'), ['ilkham', 'geidar', 'aliev']);
    assert.deepEqual(nameTokens('Leyla Ilham qızı Aliyeva', 'person'), ['leyla', 'ilham', 'aliyeva']);
    assert.deepEqual(nameTokens('Лейла Ильхам кызы Алиева', 'person'), ['leila', 'ilkham', 'alieva']);
    assert.deepEqual(nameTokens("Anvar Rustam o'g'li Karimov", 'person'), ['anvar', 'rustam', 'karimov']);
    for (const [a, b] of [
      ['Ali Heydar ogly Aliyev', 'Ali Heydar Aliyev'],
      ['Ali Heydar ogli Aliyev', 'Ali Heydar Aliyev'],
      ['Ali Heydar oğlu Aliyev', 'Ali Heydar Aliyev'],
      ['Leyla Ilham kyzy Aliyeva', 'Leyla Ilham Aliyeva'],
      ['Leyla Ilham gyzy Aliyeva', 'Leyla Ilham Aliyeva'],
      ['Leyla Ilham kizi Aliyeva', 'Leyla Ilham Aliyeva'],
      ['Лейла Ильхам гызы Алиева', 'Лейла Ильхам Алиева'],
      ['Анвар Рустам ўғли Каримов', 'Анвар Рустам Каримов'],
      ['Анвар Рустам огли Каримов', 'Анвар Рустам Каримов'],
      ['Анвар Рустам оглу Каримов', 'Анвар Рустам Каримов'],
      ['محفوظ ولد الوليد', 'محفوظ الوليد'],
      // Kyrgyz uulu, Kazakh uly and qyzy, Tatar/Bashkir улы
      ['Azamat Kadyr uulu Tashiev', 'Azamat Kadyr Tashiev'],
      ['Азамат Кадыр уулу Ташиев', 'Азамат Кадыр Ташиев'],
      ['Nursultan Abish uly Nazarbayev', 'Nursultan Abish Nazarbayev'],
      ['Нұрсұлтан Әбіш ұлы Назарбаев', 'Нұрсұлтан Әбіш Назарбаев'],
      ['Рустам Ильдар улы Минниханов', 'Рустам Ильдар Минниханов'],
      ['Dariga Nursultan qyzy Nazarbayeva', 'Dariga Nursultan Nazarbayeva'],
      ['Дарига Нұрсұлтан қызы Назарбаева', 'Дарига Нұрсұлтан Назарбаева'],
    ])
      assert.deepEqual(nameTokens(a, 'person'), nameTokens(b, 'person'), a);
    // at either end a particle stays: a name can be just a particle and a name
    assert.deepEqual(nameTokens('Ould Kheirou', 'person'), ['ould', 'kheirou']);
    assert.deepEqual(nameTokens('KHEIROU, Amada Ould', 'person'), ['amada', 'kheirou']);
    assert.deepEqual(nameTokens('Heydar oglu', 'person'), ['heydar', 'oglu']);
    assert.deepEqual(nameTokens('Azamat Kadyr uulu', 'person'), ['azamat', 'kadyr', 'uulu']);
    assert.deepEqual(nameTokens('Ould', 'person'), ['ould']);
    // organisation names keep them
    assert.deepEqual(nameTokens('Ould Ahmed Trading', 'org'), ['ould', 'ahmed', 'trading']);
  });

  test('legal-form suffixes are stripped from organisation names (built-in list)', () => {
    assert.equal(normalizeName('ANGLO-CARIBBEAN CO., LTD.', 'org'), 'anglo caribbean');
    assert.equal(normalizeName('TNK TRADING INTERNATIONAL S.A.', 'org'), 'tnk trading international');
    assert.equal(normalizeName('MI FEL, S. DE R.L. DE C.V.', 'org'), 'mi fel');
    assert.equal(normalizeName('Müller GmbH & Co. KG', 'org'), 'muller');
    assert.equal(normalizeName('OOO Romashka', 'org'), 'romashka');
    assert.equal(normalizeName('The Bank of Nowhere Limited', 'org'), 'bank nowhere');
    // Never strips the only token.
    assert.equal(normalizeName('Limited', 'org'), 'limited');
    // Person names are not touched by legal forms.
    assert.equal(normalizeName('Maria Sa', 'person'), 'maria sa');
  });

  test('legal forms from the ISO 20275 ELF list', () => {
    const elf = legalFormsFromElfCsv(readRef('elf', 'iso-20275-2026-02-19.csv'));
    assert.ok(elf.forms.size > DEFAULT_LEGAL_FORMS.forms.size + 500);
    assert.ok(elf.forms.has('gmbh') && elf.forms.has('sarl') && elf.forms.has('ltd'));
    assert.equal(normalizeName('Vini e Sapori SARL', 'org', elf), 'vini e sapori');
    assert.equal(normalizeName('Acme Oy', 'org', elf), 'acme');
    assert.equal(normalizeName('Nordic Fisk AS', 'org', elf), 'nordic fisk');
  });

  test('identifiers and countries', () => {
    assert.equal(normalizeIdentifier('ob 0243-318'), 'OB0243318');
    assert.equal(countryCode('Korea, North'), 'KP');
    assert.equal(countryCode("Democratic People's Republic of Korea"), 'KP');
    assert.equal(countryCode('Russian Federation'), 'RU');
    assert.equal(countryCode('Russia'), 'RU');
    assert.equal(countryCode('United Kingdom'), 'GB');
    assert.equal(countryCode('uk'), 'GB');
    assert.equal(countryCode('Iran (Islamic Republic of)'), 'IR');
    assert.equal(countryCode('Democratic Republic of the Congo'), 'CD');
    assert.equal(countryCode('Côte d’Ivoire'), 'CI');
    assert.equal(countryCode('Atlantis'), undefined);
  });
});
