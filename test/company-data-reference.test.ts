import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { App } from '../src/app-context.ts';
import { buildApp } from '../src/http/app.ts';
import { COUNTRY_CODES } from '../src/shared/countries.ts';
import { type Client, clientFor, getHarness, newWorkspace, SHARED_DATA_DIR } from './helpers/harness.ts';

/** Company-data reference endpoints: countries and the ISO 20275 legal forms. */

const ELF_FILE = join(SHARED_DATA_DIR, 'elf', 'iso-20275-2026-02-19.csv');

/** The header and the rows of the given ELF codes, taken from the reference CSV at test time. */
async function elfExcerpt(codes: string[]): Promise<string> {
  const lines = (await readFile(ELF_FILE, 'utf8')).split(/\r?\n/);
  return `${[lines[0], ...lines.filter((l) => codes.some((c) => l.startsWith(`"${c}",`)))].join('\n')}\n`;
}

/** An app on the shared database whose reference directory is `dir`. */
async function appWithReferenceDir(dir: string): Promise<{ app: App; api: Client }> {
  const h = await getHarness();
  const app = await buildApp({ ...h.ctx, config: { ...h.ctx.config, referenceDir: dir } });
  await app.ready();
  const ws = await newWorkspace('ref-dir');
  return { app, api: clientFor(app, ws.key, ws.workspaceId) };
}

describe('GET /v1/company-data/countries', () => {
  test('every ISO 3166-1 country with names, flag and vendor', async () => {
    const api = await newWorkspace();
    const res = await api.get('/v1/company-data/countries');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const codes = res.body.data.map((c: { code: string }) => c.code);
    assert.deepEqual(new Set(codes), COUNTRY_CODES);
    assert.equal(codes.length, COUNTRY_CODES.size);
    for (const c of res.body.data) {
      assert.deepEqual(Object.keys(c).sort(), ['code', 'emoji', 'emojiCode', 'localName', 'name', 'vendor']);
      assert.ok(c.name && c.localName, c.code);
      assert.match(c.emojiCode, /^1F1[EF][0-9A-F] 1F1[EF][0-9A-F]$/);
    }
    const fr = res.body.data.find((c: { code: string }) => c.code === 'FR');
    assert.deepEqual(fr, {
      code: 'FR',
      name: 'France',
      localName: 'France',
      emoji: '\u{1F1EB}\u{1F1F7}',
      emojiCode: '1F1EB 1F1F7',
      vendor: 'sandbox',
    });
    const de = res.body.data.find((c: { code: string }) => c.code === 'DE');
    assert.equal(de.name, 'Germany');
    assert.equal(de.localName, 'Deutschland');
    const jp = res.body.data.find((c: { code: string }) => c.code === 'JP');
    assert.equal(jp.localName, '日本');
  });

  test('filter by code and by vendor', async () => {
    const api = await newWorkspace();
    const one = await api.get('/v1/company-data/countries?code=NO');
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.equal(one.body.data.length, 1);
    assert.equal(one.body.data[0].localName, 'Norge');
    const sandbox = await api.get('/v1/company-data/countries?vendor=sandbox');
    assert.equal(sandbox.body.data.length, COUNTRY_CODES.size);
    const gleif = await api.get('/v1/company-data/countries?vendor=gleif&include_none=true');
    assert.equal(gleif.status, 200);
    assert.deepEqual(gleif.body.data, []);
    // the reference product's vendor names are accepted (no country is served by them here)
    const pappers = await api.get('/v1/company-data/countries?vendor=pappers');
    assert.equal(pappers.status, 200);
    assert.deepEqual(pappers.body.data, []);
  });

  test('countries no provider serves are hidden unless include_none=true (or vendor=none)', async () => {
    const h = await getHarness();
    const companyData = {
      ...h.ctx.config.companyData,
      providers: { '*': 'none', FR: 'sandbox', GB: 'gleif' },
    };
    const app = await buildApp({ ...h.ctx, config: { ...h.ctx.config, companyData } as typeof h.ctx.config });
    try {
      await app.ready();
      const ws = await newWorkspace('none');
      const api = clientFor(app, ws.key, ws.workspaceId);
      const codes = async (query: string) => {
        const res = await api.get(`/v1/company-data/countries${query}`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        return res.body.data.map((c: { code: string; vendor: string }) => `${c.code}:${c.vendor}`);
      };
      assert.deepEqual(await codes(''), ['FR:sandbox', 'GB:gleif']);
      assert.deepEqual(await codes('?include_none=false'), ['FR:sandbox', 'GB:gleif']);
      assert.equal((await codes('?include_none=true')).length, COUNTRY_CODES.size);
      assert.ok((await codes('?include_none=true')).includes('KP:none'));
      assert.deepEqual(await codes('?vendor=gleif'), ['GB:gleif']);
      assert.equal((await codes('?vendor=none')).length, COUNTRY_CODES.size - 2);
      assert.deepEqual(await codes('?code=KP'), []);
      assert.deepEqual(await codes('?code=KP&include_none=true'), ['KP:none']);
    } finally {
      await app.close();
    }
  });

  test('unknown code, vendor or include_none value → 400 naming the parameter', async () => {
    const api = await newWorkspace();
    for (const [query, field] of [
      ['code=XX', 'code'],
      ['code=fr', 'code'],
      ['code=FRA', 'code'],
      ['vendor=acme', 'vendor'],
      ['include_none=maybe', 'include_none'],
      ['country=FR', 'country'],
    ]) {
      const res = await api.get(`/v1/company-data/countries?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.details?.[0]?.path, field, JSON.stringify(res.body));
    }
  });
});

describe('GET /v1/company-data/entity-legal-forms', () => {
  test('FR forms include 6CHY (société par actions simplifiée), active forms only', async () => {
    const api = await newWorkspace();
    const res = await api.get('/v1/company-data/entity-legal-forms?country=FR');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(res.body.data.length > 100);
    assert.ok(res.body.data.every((f: { country: string }) => f.country === 'FR'));
    const sas = res.body.data.find((f: { code: string }) => f.code === '6CHY');
    assert.deepEqual(sas, {
      code: '6CHY',
      country: 'FR',
      label: 'société par actions simplifiée',
      languages: {
        fr: {
          label: 'société par actions simplifiée',
          abbreviations: ['SAS'],
          language: 'French',
          local_name: 'société par actions simplifiée',
          transliterated_name: 'société par actions simplifiée',
          transliterated_abbreviations: [],
        },
      },
      local_name: 'société par actions simplifiée',
      transliterated_name: 'société par actions simplifiée',
      language: 'fr',
      abbreviations: ['SAS'],
    });
    // 3LMA (Belgium, "foreign entity") is INAC in the list: absent
    const be = await api.get('/v1/company-data/entity-legal-forms?country=BE');
    const beCodes = be.body.data.map((f: { code: string }) => f.code);
    assert.ok(beCodes.length > 20);
    assert.ok(!beCodes.includes('3LMA'));
    const all = await api.get('/v1/company-data/entity-legal-forms');
    const allCodes = new Set(all.body.data.map((f: { code: string }) => f.code));
    assert.ok(allCodes.has('6CHY') && !allCodes.has('3LMA') && !allCodes.has('T5RL'));
  });

  test('several languages: the label joins the local names, each language has its names', async () => {
    const api = await newWorkspace();
    const res = await api.get('/v1/company-data/entity-legal-forms?country=BY');
    const zat = res.body.data.find((f: { code: string }) => f.code === '106J');
    assert.equal(zat.label, 'Закрытае акцыянернае таварыства, Закрытое акционерное общество');
    assert.deepEqual(Object.keys(zat.languages).sort(), ['be', 'ru']);
    assert.equal(zat.languages.ru.transliterated_name, 'Zakrytoe akcionernoe obshchestvo');
    assert.deepEqual(zat.languages.ru.abbreviations, ['ЗАО']);
    assert.equal(zat.language, 'be');
    // the placeholder codes valid everywhere are listed without a country filter only
    const all = await api.get('/v1/company-data/entity-legal-forms');
    const placeholder = all.body.data.find((f: { code: string }) => f.code === '9999');
    assert.equal(placeholder.country, null);
    assert.match(placeholder.label, /no separate legal form/);
  });

  test('US forms filter by subdivision', async () => {
    const api = await newWorkspace();
    const de = await api.get('/v1/company-data/entity-legal-forms?country=US&subdivision=US-DE');
    assert.equal(de.status, 200, JSON.stringify(de.body));
    assert.ok(de.body.data.length >= 10);
    assert.ok(de.body.data.every((f: { subdivision: string }) => f.subdivision === 'US-DE'));
    assert.equal(de.body.data.find((f: { code: string }) => f.code === 'XTIQ')?.label, 'Corporation');
    // the subdivision alone is enough (its country is implied)
    const alone = await api.get('/v1/company-data/entity-legal-forms?subdivision=US-DE');
    assert.deepEqual(alone.body, de.body);
    // without a subdivision: every US form, federal (no subdivision) and state ones
    const us = await api.get('/v1/company-data/entity-legal-forms?country=US');
    const subs = new Set(us.body.data.map((f: { subdivision?: string }) => f.subdivision ?? 'federal'));
    assert.ok(subs.has('federal') && subs.has('US-DE') && subs.has('US-CA') && subs.size > 40);
  });

  test('bad country and subdivision → 400 naming the field', async () => {
    const api = await newWorkspace();
    for (const [query, field, message] of [
      ['country=XX', 'country', /alpha-2/],
      // a malformed code gets the words of every other country parameter, not the schema's pattern
      ['country=France', 'country', /^country must be an ISO 3166-1 alpha-2 country code \(e\.g\. FR\)$/],
      ['country=fr', 'country', /^country must be an ISO 3166-1 alpha-2 country code/],
      // compared as written, like country (it was served as US-DE)
      ['subdivision=us-de', 'subdivision', /ISO 3166-2 subdivision code in upper case \(US-DE\)/],
      ['country=US&subdivision=Us-De', 'subdivision', /in upper case \(US-DE\)/],
      ['subdivision=DE', 'subdivision', /ISO 3166-2/],
      ['subdivision=XX-DE', 'subdivision', /ISO 3166-2/],
      ['country=FR&subdivision=US-DE', 'subdivision', /not in country FR/],
      ['country=US&subdivision=US-ZZ', 'subdivision', /US-DE/],
      ['subdivision=FR-75', 'subdivision', /omit subdivision/],
      // a blank subdivision is not "no subdivision" (it listed every form of every country)
      ['subdivision=', 'subdivision', /ISO 3166-2/],
      ['country=US&subdivision=%20', 'subdivision', /ISO 3166-2/],
      ['country=', 'country', /^country must be an ISO 3166-1 alpha-2 country code/],
      ['code=FR', 'code', /not a supported parameter/],
    ] as const) {
      const res = await api.get(`/v1/company-data/entity-legal-forms?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(res.body.details?.[0]?.path, field, JSON.stringify(res.body));
      assert.match(res.body.message, message, query);
    }
  });

  test('a country without forms in the list → empty list; Kosovo (XK, as GLEIF codes it) is listed', async () => {
    const api = await newWorkspace();
    const res = await api.get('/v1/company-data/entity-legal-forms?country=AQ');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, []);
    const xk = await api.get('/v1/company-data/entity-legal-forms?country=XK');
    assert.equal(xk.status, 200, JSON.stringify(xk.body));
    assert.ok(xk.body.data.length > 0 && xk.body.data.every((f: { country: string }) => f.country === 'XK'));
  });
});

describe('legal forms: no list, a broken list, a new edition', () => {
  let dir: string;
  let app: App;
  let api: Client;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'vericase-elf-'));
    ({ app, api } = await appWithReferenceDir(dir));
  });
  after(async () => {
    await app.close();
  });

  test('no list → 503 saying how to provide one; a list put in place is read without a restart', async () => {
    const none = await api.get('/v1/company-data/entity-legal-forms?country=FR');
    assert.equal(none.status, 503);
    assert.equal(none.body.code, 'SERVICE_UNAVAILABLE');
    assert.match(none.body.message, /VERICASE_REFERENCE_DIR/);
    assert.match(none.body.message, /npx vericase data pull/);
    // countries do not need the list
    assert.equal((await api.get('/v1/company-data/countries?code=FR')).status, 200);

    await mkdir(join(dir, 'elf'));
    await writeFile(join(dir, 'elf', 'iso-20275-2020-01-01.csv'), await elfExcerpt(['6CHY', '3LMA']));
    const first = await api.get('/v1/company-data/entity-legal-forms');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(
      first.body.data.map((f: { code: string }) => f.code),
      ['6CHY'],
    );

    // a newer edition next to it wins
    await writeFile(join(dir, 'elf', 'iso-20275-2021-01-01.csv'), await elfExcerpt(['6CHY', 'XTIQ']));
    const second = await api.get('/v1/company-data/entity-legal-forms');
    assert.deepEqual(second.body.data.map((f: { code: string }) => f.code).sort(), ['6CHY', 'XTIQ']);
  });

  test('a reference directory that does not exist (a typo) is named in the 503, as the screening names it', async () => {
    const missing = join(tmpdir(), `vericase-elf-typo-${Date.now()}`);
    const other = await appWithReferenceDir(missing);
    try {
      const res = await other.api.get('/v1/company-data/entity-legal-forms?country=FR');
      assert.equal(res.status, 503);
      assert.ok(
        res.body.message.startsWith(
          `No ISO 20275 legal-form list is available: the reference directory ${missing} does not exist. To provide one,`,
        ),
        res.body.message,
      );
    } finally {
      await other.app.close();
    }
  });

  test('a file that is not an ELF list → 503 naming it', async () => {
    const broken = await mkdtemp(join(tmpdir(), 'vericase-elf-broken-'));
    await mkdir(join(broken, 'elf'));
    await writeFile(join(broken, 'elf', 'iso-20275-2020-01-01.csv'), 'a,b\n1,2\n');
    const other = await appWithReferenceDir(broken);
    try {
      const res = await other.api.get('/v1/company-data/entity-legal-forms');
      assert.equal(res.status, 503);
      assert.match(res.body.message, /elf\/iso-20275-2020-01-01\.csv could not be read/);
    } finally {
      await other.app.close();
    }
  });
});
