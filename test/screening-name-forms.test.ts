import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Client, eventually, getHarness, newWorkspace } from './helpers/harness.ts';

/**
 * How a name is written, against the real lists (OFAC 2019 + UN from VERICASE_REFERENCE_DIR): a
 * bracketed acronym or place left off, a country's adjective for its name, given-name syllables written
 * apart or glued, a particle that is a name or an initial, and a name with nothing to screen.
 */

interface Hit {
  id: string;
  name: string;
  matched_name: string;
  score: number;
  explanation: { matched_tokens: { query: string; listed: string }[] };
}

let api: Client;

before(async () => {
  const { ctx } = await getHarness();
  await eventually(async () => ctx.screening?.available, 120_000);
  api = await newWorkspace('name-forms');
});

async function search(name: string, extra = ''): Promise<Hit[]> {
  const res = await api.get(`/v1/screening/search?name=${encodeURIComponent(name)}${extra}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

async function hitOf(name: string, id: string, extra = ''): Promise<Hit> {
  const data = await search(name, extra);
  const hit = data.find((d) => d.id === id);
  assert.ok(hit, `${name}: ${id} not among ${JSON.stringify(data.map((d) => [d.id, d.score]))}`);
  return hit;
}

async function settledCheck(target: Record<string, unknown>) {
  const created = await api.post('/v1/checks/aml', target);
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return eventually(async () => {
    const res = await api.get(`/v1/checks/aml/${created.body.id}`);
    return res.body.status !== 'processing' ? res.body : undefined;
  });
}

async function caseWith(body: Record<string, unknown>) {
  const res = await api.post('/v1/cases', { name: 'Name forms', ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('a bracketed acronym or place is a form of the name, not a word of it', () => {
  test('UN entities are found under the name without the bracket, and under a four-letter acronym', async () => {
    for (const [name, id] of [
      // KOREAN NATIONAL INSURANCE COMPANY (KNIC) scored 0.80 ("unmatched listed: company knic")
      ['Korean National Insurance Company', 'un_sc:KPe.048'],
      ['Special Industries Group', 'un_sc:IRe.073'],
      ['Modern Industries Technique Company', 'un_sc:IRe.044'],
      // OCEAN MARITIME MANAGEMENT COMPANY, LIMITED (OMM): 0.70
      ['Ocean Maritime Management Company Limited', 'un_sc:KPe.020'],
      // a place in brackets: AL-HARAMAIN FOUNDATION (PAKISTAN), 0.77
      ['Al-Haramain Foundation', 'un_sc:QDe.104'],
      // a bracket inside the name: UGANDA COMMERCIAL IMPEX (UCI) LTD
      ['Uganda Commercial Impex', 'un_sc:CDe.009'],
      ['KNIC', 'un_sc:KPe.048'],
      ['MITEC', 'un_sc:IRe.044'],
    ]) {
      const hit = await hitOf(name, id, '&type=company');
      assert.equal(hit.score, 1, `${name}: ${JSON.stringify(hit)}`);
    }
    const knic = await hitOf('Korean National Insurance Company', 'un_sc:KPe.048', '&type=company');
    assert.equal(knic.matched_name, 'KOREAN NATIONAL INSURANCE COMPANY (KNIC)');
    // written with its bracket, it is still the name as listed
    await hitOf('Korean National Insurance Company (KNIC)', 'un_sc:KPe.048', '&type=company&fuzziness=0');
  });

  test("a country's adjective is its name: korean pairs with korea", async () => {
    // OFAC lists KOREA NATIONAL INSURANCE CORPORATION (0.72 before: korean and korea did not pair)
    const hit = await hitOf('Korean National Insurance Company', 'ofac_sdn:20573', '&type=company');
    assert.equal(hit.score, 1);
  });

  test('a short acronym or a place in brackets is not a name of its own', async () => {
    // SPECIAL INDUSTRIES GROUP (SIG), AL-HARAMAIN FOUNDATION (PAKISTAN)
    assert.ok(!(await search('SIG', '&type=company')).some((d) => d.id === 'un_sc:IRe.073'));
    assert.ok(!(await search('Pakistan', '&type=company')).some((d) => d.id === 'un_sc:QDe.104'));
  });

  test('an aml check of the company written without the bracket needs a review', async () => {
    const c = await caseWith({ companies: [{ name: 'Korean National Insurance Company', country: 'KP' }] });
    const done = await settledCheck({ company_id: c.companies[0].id });
    assert.equal(done.status, 'need_review', JSON.stringify(done.data.review));
    const ids = done.data.hits.map((h: { vendor: { hit_id: string } }) => h.vendor.hit_id);
    assert.ok(ids.includes('un_sc:KPe.048') && ids.includes('ofac_sdn:20573'), JSON.stringify(ids));
  });
});

describe('given-name syllables written apart or glued', () => {
  test('a query that glues finds a name listed apart, and the other way', async () => {
    // UN KPi.059 KANG CHOL SU, OFAC KIM, Jong Un: nothing was found
    assert.equal((await hitOf('Kang Cholsu', 'un_sc:KPi.059', '&type=person')).score, 1);
    assert.equal((await hitOf('Kim Jongun', 'ofac_sdn:20157', '&type=person')).score, 1);
    // OFAC LI, Fangwei, born 1972-09-18: 0.74 before (fang~fangwei, wei unmatched)
    const li = await hitOf('Li Fang Wei', 'ofac_sdn:11447', '&type=person&birth_date=1972-09-18');
    assert.equal(li.score, 1);
    assert.equal(li.matched_name, 'LI, Fangwei');
    // with no type, too (the person tokenisation is tried glued)
    assert.equal((await hitOf('Li Fang Wei', 'ofac_sdn:11447')).score, 1);
  });

  test('an aml check of an individual whose given name is written apart needs a review', async () => {
    const c = await caseWith({
      companies: [{ name: 'Acme Widgets SAS', country: 'FR' }],
      individuals: [
        {
          first_name: 'Fang Wei',
          last_name: 'Li',
          birth_date: '1972-09-18',
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    const done = await settledCheck({ individual_id: c.individuals[0].id });
    assert.equal(done.status, 'need_review', JSON.stringify(done.data.review));
    const hit = done.data.hits.find(
      (h: { vendor: { hit_id: string } }) => h.vendor.hit_id === 'ofac_sdn:11447',
    );
    assert.ok(hit, JSON.stringify(done.data.hits.map((h: { name: string }) => h.name)));
    assert.equal(hit.score, 1);
  });

  test('ordinary names are still not found', async () => {
    for (const name of ['John Paul Smith', 'Mary Ann Lee', 'Jean Luc Martin', 'Anna Li']) {
      const data = await search(name, '&type=person');
      assert.deepEqual(
        data.map((d) => [d.id, d.name, d.score]),
        [],
        name,
      );
    }
  });
});

describe('particles that are names or initials', () => {
  test('the initial Y. is not the Spanish y', async () => {
    // OFAC PRIGOZHIN, Yevgeniy Viktorovich: 0.71 before (y dropped), as O. Deripaska is found
    const hit = await hitOf('Y. Prigozhin', 'ofac_sdn:21171', '&type=person');
    assert.ok(hit.score >= 0.85, JSON.stringify(hit));
    assert.ok(hit.explanation.matched_tokens.some((p) => p.query === 'y'));
  });

  test('a particle at either end is a name and is screened: Du Yurong', async () => {
    // OFAC 9340 WONG, Moon Chi a.k.a. DU, Yurong: `du` was dropped and `Yurong` alone screened
    const hit = await hitOf('Du Yurong', 'ofac_sdn:9340', '&type=person&fuzziness=0');
    assert.deepEqual(hit.explanation.matched_tokens.map((p) => p.query).sort(), ['du', 'yurong']);
    // between two names it is still a particle: Usama bin Laden is BIN LADEN, Usama
    assert.equal((await hitOf('Usama bin Laden', 'ofac_sdn:6365', '&fuzziness=0')).score, 1);
  });

  test('a name with no letter or digit is not a clean search', async () => {
    const res = await api.get(`/v1/screening/search?name=${encodeURIComponent('... -')}`);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.details[0].path, 'name');
    assert.match(res.body.message, /no letter or digit/);

    const c = await caseWith({ companies: [{ name: '—', country: 'FR' }] });
    const done = await settledCheck({ company_id: c.companies[0].id });
    assert.equal(done.status, 'need_review');
    assert.equal(done.data.result, 'error');
    assert.match(done.data.review.comment, /no letter or digit to screen/);
  });
});
