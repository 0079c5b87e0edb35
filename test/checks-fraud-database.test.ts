import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { composeIBAN } from 'ibantools';
import { sql } from 'kysely';
import { hashIdentifier, hashSecret } from '../src/fraud-database/hashing.ts';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';

/**
 * The shared fraud list and the fraud_database check, over HTTP. The list is shared by every
 * workspace of the test database, so each test uses identifiers of its own (random e-mail, phone,
 * IBAN, name) and nothing it reports can match another test's checks.
 */

const digits = (n: number) => Array.from({ length: n }, () => randomInt(10)).join('');

interface Person {
  first_name: string;
  last_name: string;
  email: string;
  phone_number: string;
  birth_date: string;
  iban: string;
}

/** A person with identifiers no other test uses; the IBAN and the French mobile (E.164) are valid. */
function person(): Person {
  const tag = randomUUID().slice(0, 8);
  return {
    first_name: `Élodie${tag}`,
    last_name: `Durand-${tag}`,
    email: `Fraud.${tag}@Example.com`,
    phone_number: `+336${digits(8)}`,
    birth_date: `19${randomInt(50, 99)}-0${randomInt(1, 9)}-1${randomInt(0, 9)}`,
    iban: composeIBAN({ countryCode: 'DE', bban: digits(18) }) as string,
  };
}

async function sharing(share: boolean): Promise<Client> {
  const api = await newWorkspace('fraud');
  const res = await api.patch('/v1/workspace/settings', { fraud_database: { share } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return api;
}

/** A case holding one individual with these identifiers (any subset) and one company. */
async function caseWith(
  api: Client,
  p: Partial<Person> & { first_name: string; last_name: string },
  company: { name?: string; registration_number?: string; country?: string; iban?: string } = {},
) {
  const { iban, ...fields } = p;
  const res = await api.post('/v1/cases', {
    name: 'fraud case',
    individuals: [
      {
        ...fields,
        address: { country: 'FR' },
        ...(iban ? { banking_information: { iban } } : {}),
      },
    ],
    companies: [
      {
        name: company.name ?? 'Fraud Co',
        type: 'main',
        ...(company.country ? { country: company.country } : {}),
        ...(company.registration_number ? { registration_number: company.registration_number } : {}),
        ...(company.iban ? { banking_information: { iban: company.iban } } : {}),
      },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return {
    caseId: res.body.id,
    individualId: res.body.individuals[0].id,
    companyId: res.body.companies[0].id,
  };
}

const fraudCheck = async (api: Client, body: Record<string, unknown>) => {
  const res = await api.post('/v1/checks/fraud_database', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
};

describe('fraud list reports', () => {
  test('settings: fraud_database.share defaults to false, is patched, and refuses a non-boolean', async () => {
    const api = await newWorkspace('fraud');
    assert.deepEqual((await api.get('/v1/workspace/settings')).body.fraud_database, { share: false });
    const on = await api.patch('/v1/workspace/settings', { fraud_database: { share: true } });
    assert.equal(on.body.fraud_database.share, true);
    const bad = await api.patch('/v1/workspace/settings', { fraud_database: { share: 'yes' } });
    assert.equal(bad.status, 400);
    assert.equal((await api.patch('/v1/workspace/settings', { fraud_database: { other: 1 } })).status, 400);
    const auto = await api.patch('/v1/workspace/settings', {
      checks: { fraud_database: { automatic_rejection: true } },
    });
    assert.equal(auto.status, 200, JSON.stringify(auto.body));
  });

  test('a report holds keyed hashes only: no raw or normalised value appears in the fraud tables', async () => {
    const api = await newWorkspace('fraud');
    const p = person();
    const { individualId } = await caseWith(api, p);
    const res = await api.post('/v1/fraud-database/reports', {
      individual_id: individualId,
      reason: 'Forged payslips',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), [
      'company_id',
      'created_at',
      'id',
      'identifier_kinds',
      'individual_id',
      'reason',
    ]);
    assert.equal(res.body.individual_id, individualId);
    assert.equal(res.body.company_id, null);
    assert.equal(res.body.reason, 'Forged payslips');
    assert.deepEqual(res.body.identifier_kinds, ['email', 'phone', 'iban', 'name_birth_date']);

    const { ctx } = await getHarness();
    const dump = JSON.stringify([
      (await sql`select * from fraud_reports`.execute(ctx.db)).rows,
      (await sql`select * from fraud_report_identifiers`.execute(ctx.db)).rows,
    ]).toLowerCase();
    const e164 = p.phone_number;
    for (const raw of [
      p.email,
      p.email.toLowerCase(),
      p.email.split('@')[0],
      e164,
      e164.slice(1),
      e164.slice(3),
      p.iban,
      p.iban.slice(4),
      p.first_name,
      p.first_name.normalize('NFKD').replace(/\p{M}/gu, ''),
      p.last_name,
      p.birth_date,
    ]) {
      assert.ok(!dump.includes(raw.toLowerCase()), `${raw} found in the fraud tables`);
    }
    const hashes = await sql<{ kind: string; hash: string }>`
      select kind, hash from fraud_report_identifiers where report_id = ${res.body.id}
    `.execute(ctx.db);
    assert.equal(hashes.rows.length, 4);
    for (const h of hashes.rows) assert.match(h.hash, /^[0-9a-f]{64}$/);
  });

  test('report: 400s, 404 for another workspace, 409 twice; list, get and withdraw own only', async () => {
    const api = await newWorkspace('fraud');
    const other = await newWorkspace('fraud');
    const mine = await caseWith(api, person(), { registration_number: '123 456 789', country: 'FR' });
    const theirs = await caseWith(other, person());
    const post = (body: unknown) => api.post('/v1/fraud-database/reports', body);
    assert.equal((await post({ reason: 'x' })).status, 400);
    assert.equal(
      (await post({ individual_id: mine.individualId, company_id: mine.companyId, reason: 'x' })).status,
      400,
    );
    assert.equal((await post({ individual_id: mine.individualId })).status, 400);
    assert.equal((await post({ individual_id: mine.individualId, reason: '' })).status, 400);
    // a reason of white space only says nothing: refused like an empty one, naming reason
    const blank = await post({ individual_id: mine.individualId, reason: ' \t\n ' });
    assert.equal(blank.status, 400, JSON.stringify(blank.body));
    assert.equal(blank.body.details[0].path, 'reason');
    assert.match(blank.body.message, /must not be blank/);
    assert.equal((await post({ individual_id: 'nope', reason: 'x' })).status, 400);
    assert.equal((await post({ individual_id: mine.individualId, reason: 'x', extra: 1 })).status, 400);
    const unknownIndividual = await post({ individual_id: theirs.individualId, reason: 'x' });
    assert.equal(unknownIndividual.status, 404);
    assert.equal(unknownIndividual.body.details[0].path, 'individual_id');
    const unknownCompany = await post({ company_id: theirs.companyId, reason: 'x' });
    assert.equal(unknownCompany.status, 404);
    assert.equal(unknownCompany.body.details[0].path, 'company_id');
    assert.equal((await post({ individual_id: randomUUID(), reason: 'x' })).status, 404);
    // nothing to hash: a person with only a name, a company without registration number nor IBAN
    const bare = await caseWith(api, { first_name: 'Only', last_name: 'Name' });
    const empty = await post({ individual_id: bare.individualId, reason: 'x' });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.details[0].path, 'individual_id');
    assert.equal((await post({ company_id: bare.companyId, reason: 'x' })).status, 400);

    const company = await post({ company_id: mine.companyId, reason: 'Shell company' });
    assert.equal(company.status, 201, JSON.stringify(company.body));
    assert.deepEqual(company.body.identifier_kinds, ['registration_number']);
    const person1 = await post({ individual_id: mine.individualId, reason: 'Stolen identity' });
    assert.equal(person1.status, 201);
    assert.equal((await post({ individual_id: mine.individualId, reason: 'again' })).status, 409);

    const list = await api.get('/v1/fraud-database/reports?sort=created_at');
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((r: { id: string }) => r.id),
      [company.body.id, person1.body.id],
    );
    assert.equal(list.body.pagination.count, 2);
    assert.equal((await api.get('/v1/fraud-database/reports?limit=1')).body.data.length, 1);
    assert.equal((await api.get('/v1/fraud-database/reports?limit=0')).status, 400);
    assert.equal((await other.get('/v1/fraud-database/reports')).body.pagination.count, 0);
    assert.equal(
      (await api.get(`/v1/fraud-database/reports/${person1.body.id}`)).body.reason,
      'Stolen identity',
    );
    assert.equal((await other.get(`/v1/fraud-database/reports/${person1.body.id}`)).status, 404);
    assert.equal((await other.delete(`/v1/fraud-database/reports/${person1.body.id}`)).status, 404);
    assert.equal((await api.delete('/v1/fraud-database/reports/not-a-uuid')).status, 400);
    assert.equal((await api.delete(`/v1/fraud-database/reports/${person1.body.id}`)).status, 204);
    assert.equal((await api.delete(`/v1/fraud-database/reports/${person1.body.id}`)).status, 404);
    assert.equal((await api.get(`/v1/fraud-database/reports/${person1.body.id}`)).status, 404);
    // withdrawn, the entity can be reported again
    assert.equal((await post({ individual_id: mine.individualId, reason: 'again' })).status, 201);
  });
});

describe('fraud_database check', () => {
  test("cross-workspace: a sharing workspace's check hits with kinds and dates only; a non-sharing one sees nothing", async () => {
    const a = await sharing(true);
    const b = await sharing(true);
    const c = await sharing(false);
    const p = person();
    const reported = await caseWith(a, p);
    const report = await a.post('/v1/fraud-database/reports', {
      individual_id: reported.individualId,
      reason: 'Confidential reason of A',
    });
    assert.equal(report.status, 201);

    // B's individual: same e-mail (other spelling) and phone (E.164), another name and no IBAN
    const e164 = p.phone_number;
    const lookalike = {
      first_name: 'Other',
      last_name: 'Person',
      email: p.email.toUpperCase(),
      phone_number: e164,
    };
    const inB = await caseWith(b, lookalike);
    const hit = await fraudCheck(b, { individual_id: inB.individualId });
    assert.equal(hit.status, 'need_review');
    assert.equal(hit.type, 'fraud_database');
    assert.equal(hit.data.result, null);
    assert.equal(hit.data.matches.length, 1);
    assert.deepEqual(hit.data.matches[0].identifier_kinds, ['email', 'phone']);
    // why a person must look: the match, named by the identifiers it holds
    assert.equal(hit.data.review.reviewer_type, null);
    assert.equal(
      hit.data.review.comment,
      'Needs a review (automatic_rejection is off): the fraud list holds email, phone of this entity',
    );
    // another workspace's report is dated to the day, not to the instant it was made
    assert.equal(hit.data.matches[0].reported_at, `${report.body.created_at.slice(0, 10)}T00:00:00.000Z`);
    assert.equal(hit.data.matches[0].reported_by_this_workspace, false);
    assert.deepEqual(Object.keys(hit.data.matches[0]).sort(), [
      'identifier_kinds',
      'reported_at',
      'reported_by_this_workspace',
    ]);
    assert.equal(hit.data.information.email, p.email.toLowerCase());
    assert.equal(hit.data.information.phone_number, e164);
    assert.deepEqual(hit.data.information.identifiers_searched, ['email', 'phone']);
    assert.deepEqual(hit.data.settings, {
      vendor: 'shared_fraud_list',
      automatic_approval: true,
      automatic_rejection: false,
    });
    // nothing of A's: not its workspace, case, entity, report, reason, or the values B did not have
    const shown = JSON.stringify([hit, (await b.get(`/v1/checks/fraud_database/${hit.id}`)).body]);
    for (const secret of [
      a.workspaceId,
      reported.caseId,
      reported.individualId,
      report.body.id,
      'Confidential reason',
      p.iban,
      p.last_name,
      p.birth_date,
    ]) {
      assert.ok(!shown.includes(secret), `${secret} shown to B`);
    }

    // C does not share: it sees nothing of A's report
    const inC = await caseWith(c, lookalike);
    const none = await fraudCheck(c, { individual_id: inC.individualId });
    assert.equal(none.status, 'approved');
    assert.deepEqual(none.data.matches, []);
    assert.equal(none.data.result, 'approved');
    assert.equal(none.data.review.reviewer_type, 'system');

    // A stops sharing: B no longer sees its report; sharing again shows it again
    await a.patch('/v1/workspace/settings', { fraud_database: { share: false } });
    assert.equal((await fraudCheck(b, { individual_id: inB.individualId })).status, 'approved');
    await a.patch('/v1/workspace/settings', { fraud_database: { share: true } });
    assert.equal((await fraudCheck(b, { individual_id: inB.individualId })).status, 'need_review');

    // withdrawn: no check matches it any more
    assert.equal((await a.delete(`/v1/fraud-database/reports/${report.body.id}`)).status, 204);
    const after = await fraudCheck(b, { individual_id: inB.individualId });
    assert.equal(after.status, 'approved');
    assert.deepEqual(after.data.matches, []);
  });

  test("own reports match without sharing; name + birth date ignore accents, case and order; IBAN's spacing", async () => {
    const api = await sharing(false);
    const p = person();
    const first = await caseWith(api, p);
    const report = await api.post('/v1/fraud-database/reports', {
      individual_id: first.individualId,
      reason: 'x',
    });
    assert.equal(report.status, 201);
    const spaced = p.iban
      .replace(/(.{4})/g, '$1 ')
      .trim()
      .toLowerCase();
    const again = await caseWith(api, {
      first_name: p.last_name.toUpperCase(),
      last_name: p.first_name.normalize('NFKD').replace(/\p{M}/gu, ''),
      birth_date: p.birth_date,
      iban: spaced,
    });
    const hit = await fraudCheck(api, { individual_id: again.individualId });
    assert.equal(hit.status, 'need_review');
    assert.deepEqual(hit.data.matches, [
      {
        identifier_kinds: ['iban', 'name_birth_date'],
        reported_at: report.body.created_at,
        reported_by_this_workspace: true,
      },
    ]);
    assert.equal(hit.data.information.iban, p.iban);
    // an IBAN held by a company matches too
    const withCompany = await caseWith(api, { first_name: 'x', last_name: 'y' }, { iban: p.iban });
    const companyHit = await fraudCheck(api, { company_id: withCompany.companyId });
    assert.deepEqual(companyHit.data.matches[0].identifier_kinds, ['iban']);
    assert.equal(companyHit.data.information.entity_type, 'company');
  });

  test("a name's apostrophe may be written or dropped: L'Hôte matches LHOTE and L Hote, whichever was reported", async () => {
    const api = await sharing(false);
    const tag = randomUUID().slice(0, 6).replace(/\d/g, 'x');
    const birth_date = `19${randomInt(50, 99)}-0${randomInt(1, 9)}-1${randomInt(0, 9)}`;
    const registry = { first_name: `Jean-Pierre${tag}`, last_name: 'L\u2019Hôte', birth_date };
    const form = { first_name: `JEAN PIERRE${tag.toUpperCase()}`, last_name: 'LHOTE', birth_date };
    const spaced = { first_name: `jean pierre${tag}`, last_name: 'l hote', birth_date };
    // reported with the apostrophe: the form's spelling and the spaced one both match
    const reported = await caseWith(api, registry);
    const report = await api.post('/v1/fraud-database/reports', {
      individual_id: reported.individualId,
      reason: 'x',
    });
    assert.equal(report.status, 201, JSON.stringify(report.body));
    for (const other of [form, spaced]) {
      const c = await caseWith(api, other);
      const check = await fraudCheck(api, { individual_id: c.individualId });
      assert.deepEqual(
        check.data.matches.map((m: { identifier_kinds: string[] }) => m.identifier_kinds),
        [['name_birth_date']],
        JSON.stringify(other),
      );
    }
    // the other way round: reported without it, searched with it
    const api2 = await sharing(false);
    const plain = await caseWith(api2, form);
    assert.equal(
      (await api2.post('/v1/fraud-database/reports', { individual_id: plain.individualId, reason: 'x' }))
        .status,
      201,
    );
    const withApostrophe = await caseWith(api2, { ...registry, last_name: "L'Hôte" });
    const hit = await fraudCheck(api2, { individual_id: withApostrophe.individualId });
    assert.equal(hit.status, 'need_review');
    assert.deepEqual(hit.data.matches[0].identifier_kinds, ['name_birth_date']);
    // a different name is still no match
    const other = await caseWith(api2, { ...form, last_name: 'LHOTEL' });
    assert.deepEqual((await fraudCheck(api2, { individual_id: other.individualId })).data.matches, []);
  });

  test('a French company is its SIREN: its SIRET, VAT number or RCS mention match a report made with another of them; a report stored before this rule still matches', async () => {
    const a = await sharing(true);
    const b = await sharing(true);
    const siren = digits(9);
    const spaced = `${siren.slice(0, 3)} ${siren.slice(3, 6)} ${siren.slice(6)}`;
    const reported = await caseWith(
      a,
      { first_name: 'x', last_name: 'y' },
      { registration_number: `${siren}00017`, country: 'FR' }, // a SIRET of the company
    );
    const report = await a.post('/v1/fraud-database/reports', {
      company_id: reported.companyId,
      reason: 'x',
    });
    assert.equal(report.status, 201, JSON.stringify(report.body));
    for (const spelling of [siren, spaced, `${siren}00025`, `FR12${siren}`, `RCS Lyon B ${spaced}`]) {
      const inB = await caseWith(
        b,
        { first_name: 'x', last_name: 'y' },
        { registration_number: spelling, country: 'FR' },
      );
      const check = await fraudCheck(b, { company_id: inB.companyId });
      assert.equal(check.status, 'need_review', `${spelling}: ${JSON.stringify(check.data)}`);
      assert.deepEqual(check.data.matches[0].identifier_kinds, ['registration_number']);
      assert.equal(check.data.information.company_number, siren);
    }
    // another company's SIREN, the same digits in another country: no match
    const other = await caseWith(
      b,
      { first_name: 'x', last_name: 'y' },
      { registration_number: `${siren.slice(0, 8)}${(Number(siren[8]) + 1) % 10}`, country: 'FR' },
    );
    assert.equal((await fraudCheck(b, { company_id: other.companyId })).status, 'approved');
    const belgian = await caseWith(
      b,
      { first_name: 'x', last_name: 'y' },
      { registration_number: `${siren}00017`, country: 'BE' },
    );
    assert.equal((await fraudCheck(b, { company_id: belgian.companyId })).status, 'approved');

    // a report made by an earlier version kept the SIRET as written (FR:<14 digits>)
    const { ctx } = await getHarness();
    const siret = digits(14);
    const old = await caseWith(
      a,
      { first_name: 'x', last_name: 'y' },
      { registration_number: siret, country: 'FR' },
    );
    const oldReport = await a.post('/v1/fraud-database/reports', { company_id: old.companyId, reason: 'x' });
    assert.equal(oldReport.status, 201, JSON.stringify(oldReport.body));
    const secret = await hashSecret(ctx, ctx.db);
    await ctx.db
      .updateTable('fraud_report_identifiers')
      .set({ hash: hashIdentifier(secret, { kind: 'registration_number', value: `FR:${siret}` }) })
      .where('report_id', '=', oldReport.body.id)
      .where('kind', '=', 'registration_number')
      .execute();
    const sameSiret = await caseWith(
      b,
      { first_name: 'x', last_name: 'y' },
      { registration_number: siret, country: 'FR' },
    );
    assert.equal((await fraudCheck(b, { company_id: sameSiret.companyId })).status, 'need_review');
  });

  test('company registration number + country; automatic_rejection rejects a match; alias path, retrieve, review', async () => {
    const a = await sharing(true);
    const b = await sharing(true);
    const number = digits(9);
    const reported = await caseWith(
      a,
      { first_name: 'x', last_name: 'y' },
      {
        registration_number: `${number.slice(0, 3)} ${number.slice(3, 6)} ${number.slice(6)}`,
        country: 'FR',
      },
    );
    assert.equal(
      (await a.post('/v1/fraud-database/reports', { company_id: reported.companyId, reason: 'x' })).status,
      201,
    );
    const inB = await caseWith(
      b,
      { first_name: 'x', last_name: 'y' },
      {
        registration_number: number,
        country: 'FR',
      },
    );
    const otherCountry = await caseWith(
      b,
      { first_name: 'x', last_name: 'y' },
      {
        registration_number: number,
        country: 'BE',
      },
    );
    assert.equal((await fraudCheck(b, { company_id: otherCountry.companyId })).status, 'approved');

    const rejected = await b.post('/v1/checks/fraud-database', {
      company_id: inB.companyId,
      settings: { automatic_rejection: true },
    });
    assert.equal(rejected.status, 201, JSON.stringify(rejected.body));
    assert.equal(rejected.body.status, 'rejected');
    assert.equal(rejected.body.data.result, 'rejected');
    assert.equal(rejected.body.data.review.reviewer_type, 'system');
    assert.match(rejected.body.data.review.comment, /registration_number/);
    assert.equal(rejected.body.data.information.company_number, number);
    assert.equal(rejected.body.data.information.company_country, 'FR');

    const review = await fraudCheck(b, { company_id: inB.companyId });
    assert.equal(review.status, 'need_review');
    assert.equal((await b.get(`/v1/checks/fraud-database/${review.id}`)).body.id, review.id);
    assert.equal((await a.get(`/v1/checks/fraud_database/${review.id}`)).status, 404);
    const approved = await b.patch(`/v1/checks/fraud_database/${review.id}/review`, {
      action: 'approve',
      comment: 'Homonym, checked by phone',
    });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.equal(approved.body.status, 'approved');
    assert.equal(approved.body.data.review.reviewer_type, 'api');
    // the workspace default applies when the request says nothing
    await b.patch('/v1/workspace/settings', { checks: { fraud_database: { automatic_rejection: true } } });
    assert.equal((await fraudCheck(b, { company_id: inB.companyId })).status, 'rejected');
  });

  test('no match with automatic_approval false, and nothing to search → need_review', async () => {
    const api = await newWorkspace('fraud');
    const p = person();
    const { individualId } = await caseWith(api, p);
    const manual = await fraudCheck(api, {
      individual_id: individualId,
      settings: { automatic_approval: false },
    });
    assert.equal(manual.status, 'need_review');
    assert.deepEqual(manual.data.matches, []);
    assert.equal(
      manual.data.review.comment,
      'Needs a review (automatic_approval is off): no match in the fraud list',
    );
    const bare = await caseWith(api, { first_name: 'Only', last_name: 'Name' });
    const nothing = await fraudCheck(api, { individual_id: bare.individualId });
    assert.equal(nothing.status, 'need_review');
    assert.deepEqual(nothing.data.information.identifiers_searched, []);
    assert.match(nothing.data.ai_analysis.interpretation, /nothing could be searched/);
    assert.match(nothing.data.review.comment, /^Needs a review: .*nothing could be searched/);
    // a company with a country but no registration number: nothing searched, its country shown
    const countryOnly = await caseWith(api, { first_name: 'Only', last_name: 'Name' }, { country: 'BE' });
    const company = await fraudCheck(api, { company_id: countryOnly.companyId });
    assert.equal(company.status, 'need_review');
    assert.deepEqual(company.data.information.identifiers_searched, []);
    assert.equal(company.data.information.company_number, null);
    assert.equal(company.data.information.company_country, 'BE');
    assert.equal(company.data.information.company_name, 'Fraud Co');
  });

  test('check: 400 without or with both targets, bad settings; 404 for another workspace', async () => {
    const api = await newWorkspace('fraud');
    const other = await newWorkspace('fraud');
    const mine = await caseWith(api, person());
    const theirs = await caseWith(other, person());
    const post = (body: unknown) => api.post('/v1/checks/fraud_database', body);
    assert.equal((await post({})).status, 400);
    assert.equal((await post({ individual_id: mine.individualId, company_id: mine.companyId })).status, 400);
    assert.equal(
      (await post({ individual_id: mine.individualId, settings: { vendor: 'cifas' } })).status,
      400,
    );
    assert.equal((await post({ individual_id: mine.individualId, settings: { other: true } })).status, 400);
    assert.equal((await post({ individual_id: mine.individualId, data: {} })).status, 400);
    assert.equal((await post({ individual_id: theirs.individualId })).status, 404);
    assert.equal((await post({ company_id: theirs.companyId })).status, 404);
    assert.equal((await api.get('/v1/checks')).body.pagination.count, 0);
  });
});
