/**
 * A check reviewed in the console, in headless Chromium against the real service on a socket: an AML
 * screening of a listed person (its hits beside the screened person) from the review queue, in
 * English and in French. Every word of the queue and of the check panel is in the console's
 * language: check types, statuses, results, the hits' fields, list types and statuses, the count of
 * entities checks were launched on. Screenshots: test-output/screenshots/console-checks-*.png.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ScreeningService } from '../../src/screening/service/screening-service.ts';
import {
  type ChromiumSession,
  openChromium,
  type Page,
  SCREENSHOT_DIR,
  signedInPage,
} from '../helpers/browser.ts';
import { createConsoleUser } from '../helpers/console-session.ts';
import { type Client, eventually, getHarness, newWorkspace } from '../helpers/harness.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';
import { portalCase, portalToken } from '../helpers/portal.ts';

let server: LiveServer;
let base: string;
let chrome: ChromiumSession;
let api: Client;
let reviewer: { email: string; password: string };
let caseId: string;
let elvisId: string;
let amlId: string;

// on OFAC's SDN list, in the reference data the tests screen against (test/checks-aml.test.ts)
const LISTED_PERSON = {
  first_name: 'Elvis',
  middle_name: 'Angus',
  last_name: 'Logan Morey',
  birth_date: '1963-07-28',
  nationalities: ['BZ'],
};

async function shot(page: Page, name: string) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `console-checks-${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled', caret: 'hide' });
}

async function signedIn(who: { email: string; password: string }): Promise<Page> {
  return signedInPage(chrome, base, who);
}

/** The panel's words, without its "All data" block (the check's JSON as the API has it). */
function shownText(panel: ReturnType<Page['locator']>): Promise<string> {
  // this file is type-checked without the DOM library: the element is `any`
  return panel.evaluate((el: any) => {
    const copy = el.cloneNode(true);
    for (const d of copy.querySelectorAll('details')) d.remove();
    return (copy.textContent as string | null) ?? '';
  });
}

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
  const { ctx } = await getHarness();
  await eventually(async () => ctx.screening?.available, 120_000);
  api = await newWorkspace('console-checks');
  reviewer = await createConsoleUser(ctx, api.workspaceId, { role: 'reviewer' });
  const created = await api.post('/v1/cases', {
    name: 'Screening case',
    companies: [{ name: 'Acme Widgets SAS', country: 'FR' }],
    individuals: [{ ...LISTED_PERSON, relations: [{ roles: ['legal_representative'] }] }],
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  caseId = created.body.id;
  elvisId = created.body.individuals[0].id;
  const aml = await api.post('/v1/checks/aml', { individual_id: elvisId });
  assert.equal(aml.status, 201, JSON.stringify(aml.body));
  amlId = aml.body.id;
  const screened = await eventually(async () => {
    const res = await api.get(`/v1/checks/aml/${amlId}`);
    return res.body.status !== 'processing' ? res.body : undefined;
  });
  assert.equal(screened.status, 'need_review');
  assert.ok(screened.data.hits.length >= 1);
  chrome = await openChromium({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
});

after(async () => {
  await chrome?.close();
  await server?.close();
});

describe('console checks', { timeout: 600_000 }, () => {
  test('the queue and the check panel read in English, then in French, with no raw code', async () => {
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/queue`);
    const row = page.getByRole('row', { name: /Logan Morey/ });
    await row.waitFor();
    // the check's type by its label, not its code
    assert.equal(await row.getByRole('cell').first().textContent(), 'AML screening');
    await shot(page, '01-queue');

    // the queue's link opens the case with the check unfolded; named after the case, then the check
    // and its subject (a case's several checks each have a link)
    const link = row.getByRole('link', {
      name: 'Screening case — AML screening, Elvis Logan Morey',
      exact: true,
    });
    // what is seen is the case's name; the rest is in a visually hidden span
    assert.equal(
      await link.evaluate((el: any) => `${el.firstChild.textContent}|${el.querySelector('span').className}`),
      'Screening case|visually-hidden',
    );
    await link.click();
    const panel = page.locator(`#check-${amlId}`);
    await panel.getByRole('heading', { name: /Hits/ }).waitFor();
    // the page shows the check it was opened for: its row has the focus (the page opened at its top,
    // the check below the fold: console walk)
    await page.waitForFunction(
      `document.activeElement?.getAttribute('data-check-id') === ${JSON.stringify(amlId)}`,
    );
    const english = await shownText(panel);
    // a person is screened with their nationalities: named so on the screened side
    const screenedSide = await panel.locator('.hit-side').first().innerText();
    assert.match(screenedSide, /Nationalities\s+Belize \(BZ\)/);
    assert.doesNotMatch(screenedSide, /Countries/);
    for (const words of [
      'To review',
      'Birth date',
      'Gender',
      'Person',
      'Sanctions',
      'Potential match',
      // the list by its name, the dates as the entity's own birth date is written
      'OFAC SDN (United States)',
      '28 Jul 1963',
      // the screened person's country by its name, the code beside it
      'Belize (BZ)',
    ])
      assert.ok(english.includes(words), `"${words}" in ${english}`);
    for (const raw of [
      'need_review',
      'potential_match',
      'birth date',
      'sanction ·',
      'ofac_sdn',
      '1963-07-28',
    ])
      assert.ok(!english.includes(raw), `no "${raw}" in ${english}`);
    // the graph shows the whole name (it was cut to "Elvis Angus Logan…" with room to spare)
    assert.deepEqual(await page.getByTestId('case-graph').locator('.case-graph-name').allTextContents(), [
      'Acme Widgets SAS',
      'Elvis Angus Logan Morey',
    ]);
    await shot(page, '02-aml-english');
    // hits still to decide: the check's own decision waits for them and says why (the server's
    // refusal named an API path and a status code)
    const hitsFirst = panel.getByTestId('check-hits-first');
    assert.equal(await hitsFirst.textContent(), 'Confirm or ignore every hit before deciding the check.');
    assert.equal(await panel.getByTestId('check-hits-done').count(), 0);
    const reviewForm = panel.getByRole('form', { name: 'Review' });
    for (const name of ['Approve', 'Reject'])
      assert.equal(await reviewForm.getByRole('button', { name }).isDisabled(), true, name);

    // one check launched on one entity: the singular
    await page.getByRole('button', { name: 'Launch checks' }).click();
    const launch = page.getByRole('dialog', { name: 'Launch checks' });
    await launch.getByLabel('One check').check();
    await launch.getByRole('combobox').selectOption('fraud_database');
    await launch.getByLabel('Acme Widgets SAS').check();
    await launch.getByRole('button', { name: 'Launch' }).click();
    await launch.getByRole('status').filter({ hasText: 'Checks launched on 1 entity.' }).waitFor();
    await launch.getByRole('button', { name: 'Close' }).click();

    // in French: the same panel, every word in French
    await page.getByLabel('Language').selectOption('fr');
    await panel.getByRole('heading', { name: /Correspondances/ }).waitFor();
    const french = await shownText(panel);
    for (const words of [
      'Statut',
      'À revoir',
      'Résultat',
      'Nom',
      'Date de naissance',
      'Sexe',
      'Personne',
      'Correspondance possible',
      'OFAC SDN (États-Unis)',
      '28 juil. 1963',
    ])
      assert.ok(french.includes(words), `"${words}" in ${french}`);
    for (const english of ['need_review', 'Name', 'Kind', 'Birth', 'Gender', 'potential_match', 'person'])
      assert.ok(!french.includes(english), `no "${english}" in ${french}`);
    await shot(page, '03-aml-french');

    // the hit ignored with a reason: its status in French, the reason kept on the hit
    await panel
      .getByLabel(/^Pourquoi \(facultatif\), pour /)
      .first()
      .fill('Né en 1935, pas en 1963');
    await panel.getByRole('button', { name: 'Écarter (homonyme)' }).first().click();
    await panel.getByText('Statut : Écartée (homonyme)').first().waitFor();
    await panel.locator('.hit q', { hasText: 'Né en 1935, pas en 1963' }).waitFor();
    const ignored = (await api.get(`/v1/checks/aml/${amlId}`)).body.data.hits.find(
      (h: any) => h.status === 'false_positive',
    );
    assert.equal(ignored.review.comment, 'Né en 1935, pas en 1963');
    assert.ok(!(await shownText(panel)).includes('false_positive'));
    await page.getByLabel('Langue').selectOption('en');

    // the queue in French names the check type in French (the check still waits for its review)
    await page.getByLabel('Language').selectOption('fr');
    await page.goto(`${base}/console/queue`);
    await page
      .getByRole('row', { name: /Logan Morey/ })
      .getByRole('cell', { name: 'Criblage LCB-FT', exact: true })
      .waitFor();
    // the built-in document types by their French names (workspace data in English); they were
    // shown in English
    await page.goto(`${base}/console/settings/document-types`);
    const types = page.locator('section.settings-main table');
    await types.getByRole('cell', { name: 'Justificatif de domicile', exact: true }).waitFor();
    assert.equal(await types.getByRole('cell', { name: 'Proof of address', exact: true }).count(), 0);
    await page.getByLabel('Langue').selectOption('en');
    await types.getByRole('cell', { name: 'Proof of address', exact: true }).waitFor();
    await page.close();
  });

  test('a page that failed to load: its error gives way to the next page that loads; a write with no answer frees its button', async () => {
    const page = await signedIn(reviewer);
    // the queue has one check: its first page is answered as if it had two pages, the second fails
    await page.route('**/v1/review-queue/checks?*', async (route) => {
      if (new URL(route.request().url()).searchParams.get('page') === '2') return route.abort();
      const real = await route.fetch();
      const body = await real.json();
      await route.fulfill({
        response: real,
        json: { ...body, pagination: { ...body.pagination, count: 30 } },
      });
    });
    await page.goto(`${base}/console/queue`);
    await page.getByRole('row', { name: /Logan Morey/ }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByRole('button', { name: 'Previous' }).click();
    // the first page again, without the second page's error over it
    await page.getByRole('row', { name: /Logan Morey/ }).waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);

    // a tag added while the server does not answer: the failure is said and the button works again
    await page.route('**/v1/cases/*/tags', (route) =>
      route.request().method() === 'POST' ? route.abort() : route.fallback(),
    );
    await page.goto(`${base}/console/cases/${caseId}`);
    const tags = page.getByTestId('case-tags');
    await tags.getByPlaceholder('New or existing tag').fill('unanswered');
    await tags.getByRole('button', { name: 'Add a tag' }).click();
    await tags.getByRole('alert').filter({ hasText: 'The request failed.' }).waitFor();
    assert.equal(await tags.getByRole('button', { name: 'Add a tag' }).isEnabled(), true);
    await page.close();
  });

  test('a hit says why it matched and what monitoring did to it; a hit gone from the lists has no buttons', async () => {
    const { ctx } = await getHarness();
    const created = await api.post('/v1/cases', {
      name: 'Monitored screening',
      companies: [{ name: 'Acme Widgets SAS', country: 'FR' }],
      individuals: [{ ...LISTED_PERSON, relations: [{ roles: ['legal_representative'] }] }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const started = await api.post('/v1/checks/aml', { individual_id: created.body.individuals[0].id });
    const check = await eventually(async () => {
      const res = await api.get(`/v1/checks/aml/${started.body.id}`);
      return res.body.status !== 'processing' ? res.body : undefined;
    });
    assert.equal(check.status, 'need_review');
    // what a re-screening leaves (test/checks-aml.test.ts makes it from list versions): the first hit
    // no longer listed, matched on an alias
    const hits = check.data.hits.map((h: any, i: number) =>
      i === 0
        ? {
            ...h,
            matched_name: 'BURTON BURGESS',
            vendor: {
              ...h.vendor,
              updated_by_monitoring_status: 'removed',
              updated_by_monitoring_at: '2026-03-04T10:00:00.000Z',
            },
          }
        : h,
    );
    await ctx.db
      .updateTable('checks')
      .set({ data: JSON.stringify({ ...check.data, hits }) })
      .where('id', '=', check.id)
      .execute();
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/cases/${created.body.id}?check=${check.id}`);
    const hit = page.locator(`#check-${check.id}`).locator('.hit').first();
    await hit.getByTestId('hit-monitoring').waitFor();
    assert.match(
      (await hit.getByTestId('hit-monitoring').textContent()) ?? '',
      /^No longer on the lists since 4 Mar 2026.*: kept as the record of what was decided$/,
    );
    assert.equal(await hit.getByTestId('hit-matched-name').textContent(), 'Matched on: BURTON BURGESS');
    assert.equal(await hit.getByRole('button', { name: 'Confirm (true match)' }).count(), 0);
    assert.equal(await hit.getByRole('button', { name: 'Ignore (not them)' }).count(), 0);
    await hit.getByText('Why it matched').click();
    // in words: the name's score and its pairs, then each detail and its effect
    const why = (await hit.getByTestId('hit-why').innerText()).split('\n');
    assert.ok(
      why.some((l) => /^Name 1\.00: /.test(l)),
      why.join(' | '),
    );
    assert.ok(
      why.some((l) => /^Birth date: \+0\.05 \(full date agrees/.test(l)),
      why.join(' | '),
    );
    // the listed identifiers and the list types are labelled facts
    const listed = await hit.locator('.hit-side').nth(1).innerText();
    assert.match(listed, /Identifiers\s+Passport P0017003/);
    assert.match(listed, /List types\s+Sanctions/);
    await shot(page, '05-hit-monitoring');
    await page.close();
  });

  test('deciding one hit keeps the reason typed for another (the panel is drawn again)', async () => {
    const created = await api.post('/v1/cases', {
      name: 'Two hits',
      companies: [{ name: 'Acme Widgets SAS', country: 'FR' }],
      individuals: [
        { first_name: 'Ali', last_name: 'Hassan', relations: [{ roles: ['legal_representative'] }] },
      ],
    });
    const started = await api.post('/v1/checks/aml', { individual_id: created.body.individuals[0].id });
    const check = await eventually(async () => {
      const res = await api.get(`/v1/checks/aml/${started.body.id}`);
      return res.body.status !== 'processing' ? res.body : undefined;
    });
    assert.ok(check.data.hits.length >= 2);
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/cases/${created.body.id}?check=${check.id}`);
    const hits = page.locator(`#check-${check.id}`).locator('.hit');
    await hits.first().waitFor();
    await hits.nth(0).locator('.hit-reason').fill('REASON-ONE same person');
    await hits.nth(1).locator('.hit-reason').fill('REASON-TWO other birth date');
    await hits.nth(0).getByRole('button', { name: 'Confirm (true match)' }).click();
    await hits.nth(0).getByText('Hit status: Confirmed', { exact: false }).waitFor();
    assert.equal(await hits.nth(1).locator('.hit-reason').inputValue(), 'REASON-TWO other birth date');
    await hits.nth(1).getByRole('button', { name: 'Ignore (not them)' }).click();
    const after = await eventually(async () => {
      const res = await api.get(`/v1/checks/aml/${check.id}`);
      return res.body.data.hits[1].status === 'false_positive' ? res.body : undefined;
    });
    assert.equal(after.data.hits[0].review.comment, 'REASON-ONE same person');
    assert.equal(after.data.hits[1].review.comment, 'REASON-TWO other birth date');
    await page.close();
  });

  test('an online reputation analysis still running cannot be decided yet, and the panel says why', async () => {
    const { ctx } = await getHarness();
    const created = await api.post('/v1/cases', {
      name: 'Running analysis',
      companies: [{ name: 'Slow Analysis SAS', country: 'FR' }],
    });
    const started = await api.post('/v1/checks/online_reputation', {
      company_id: created.body.companies[0].id,
    });
    await eventually(async () => {
      const res = await api.get(`/v1/checks/online_reputation/${started.body.id}`);
      return res.body.status !== 'processing' || undefined;
    });
    // as between its creation and the analysis's end
    await ctx.db
      .updateTable('checks')
      .set({ status: 'processing' })
      .where('id', '=', started.body.id)
      .execute();
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/cases/${created.body.id}?check=${started.body.id}`);
    const panel = page.locator(`#check-${started.body.id}`);
    await panel.getByTestId('check-running').waitFor();
    assert.equal(
      await panel.getByTestId('check-running').textContent(),
      'The analysis is still running: the check is decided once it has ended.',
    );
    assert.equal(await panel.getByRole('button', { name: 'Approve' }).isDisabled(), true);
    assert.equal(await panel.getByRole('button', { name: 'Reject' }).isDisabled(), true);
    await page.close();
  });

  test("a decided check's hits can no longer be confirmed or ignored", async () => {
    // every hit reviewed (the first test ignored them from the page): the check can be approved
    const hits = (await api.get(`/v1/checks/aml/${amlId}`)).body.data.hits.map((h: { id: string }) => h.id);
    await api.patch(`/v1/checks/aml/${amlId}/hits/review`, { action: 'ignore', hit_ids: hits.slice(1) });
    await api.patch(`/v1/checks/aml/${amlId}/hits/review`, { action: 'confirm', hit_ids: hits.slice(0, 1) });
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/cases/${caseId}?check=${amlId}`);
    const panel = page.locator(`#check-${amlId}`);
    await panel.getByRole('heading', { name: /Hits/ }).waitFor();
    // undecided: the hits' buttons work
    assert.equal(await panel.getByRole('button', { name: 'Confirm (true match)' }).first().isEnabled(), true);
    // every hit decided: the check's decision no longer waits, and the page says what is left
    assert.equal(await panel.getByTestId('check-hits-first').count(), 0);
    assert.equal(
      await panel.getByTestId('check-hits-done').textContent(),
      'Every hit is confirmed or ignored: approve or reject the check.',
    );
    // the screening's "found N hits to confirm or ignore" no longer holds: not shown beside it
    assert.equal(await panel.getByTestId('check-waiting-reason').count(), 0);
    // a hit's Confirm and Ignore share one row under both sides of the hit, ending at its right
    const hit = panel.locator('.hit').first();
    const hitBox = await hit.boundingBox();
    const confirmBox = await hit.getByRole('button', { name: 'Confirm (true match)' }).boundingBox();
    const ignoreBox = await hit.getByRole('button', { name: 'Ignore (not them)' }).boundingBox();
    assert.ok(hitBox && confirmBox && ignoreBox);
    assert.ok(
      Math.abs(confirmBox.y - ignoreBox.y) <= 2 && confirmBox.x < ignoreBox.x,
      'Confirm, then Ignore, on one row',
    );
    assert.ok(
      ignoreBox.x + ignoreBox.width > hitBox.x + hitBox.width * 0.75,
      'the row ends at the right of the hit',
    );
    await panel.getByLabel('Comment').fill('Not him: other birth place.');
    // the review's buttons are the console's row of actions: at the form's right, Approve last
    const form = panel.getByRole('form', { name: 'Review' });
    const formBox = await form.boundingBox();
    const approveBox = await form.getByRole('button', { name: 'Approve' }).boundingBox();
    const rejectBox = await form.getByRole('button', { name: 'Reject' }).boundingBox();
    assert.ok(formBox && approveBox && rejectBox);
    assert.ok(
      Math.abs(approveBox.x + approveBox.width - (formBox.x + formBox.width)) <= 2,
      'Approve ends the row',
    );
    assert.ok(rejectBox.x < approveBox.x && Math.abs(rejectBox.y - approveBox.y) <= 2, 'Reject before it');
    // one hit confirmed as the listed person: approving is possible, and said to go against it
    const confirmed = panel.getByTestId('check-confirmed-hits');
    assert.equal(
      await confirmed.textContent(),
      '1 hit is confirmed as a true match: approving records the check as approved all the same.',
    );
    assert.equal(
      await form.getByRole('button', { name: 'Approve' }).getAttribute('aria-describedby'),
      await confirmed.getAttribute('id'),
    );
    await panel.getByRole('button', { name: 'Approve' }).click();
    await panel.getByText('The check is decided').waitFor();
    assert.equal((await api.get(`/v1/checks/aml/${amlId}`)).body.status, 'approved');
    // an override asked for can be given up without a reload
    // (the tick is replaced by the form at once: clicked, not checked)
    await panel.getByLabel('Change a decided check (override)').click();
    await panel.getByRole('form', { name: 'Review' }).getByRole('button', { name: 'Cancel' }).click();
    await panel.getByLabel('Change a decided check (override)').waitFor();
    assert.equal(await panel.getByRole('form', { name: 'Review' }).count(), 0);
    for (const name of ['Confirm (true match)', 'Ignore (not them)']) {
      const buttons = panel.getByRole('button', { name });
      assert.ok((await buttons.count()) >= 1);
      for (const b of await buttons.all()) assert.equal(await b.isDisabled(), true, name);
    }
    await shot(page, '04-aml-decided');
    // the timeline says which hit a decision was about: its listed name (console walk: it said only
    // "confirmed an AML hit")
    const listed = (await api.get(`/v1/checks/aml/${amlId}`)).body.data.hits;
    await page.getByRole('tab', { name: 'Activity' }).click();
    const confirmedEntry = page
      .getByTestId('case-activity')
      .locator('li', { hasText: 'confirmed an AML hit' })
      .first();
    await confirmedEntry.getByText(listed[0].name, { exact: false }).waitFor();
    assert.match(
      (await confirmedEntry.textContent()) ?? '',
      new RegExp(
        `confirmed an AML hit · Elvis [A-Za-z ]+ · AML screening · ${listed[0].name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
      ),
    );
    await shot(page, '05-aml-activity');
    await page.close();
  });

  test('a check reviewed by the API or by an automatic rule names its reviewer in words, in French too', async () => {
    const company = (await api.get(`/v1/cases/${caseId}`)).body.companies[0].id;
    const fraud = await api.post('/v1/checks/fraud_database', { company_id: company });
    assert.equal(fraud.status, 201, JSON.stringify(fraud.body));
    const settled = await eventually(async () => {
      const res = await api.get(`/v1/checks/fraud_database/${fraud.body.id}`);
      return res.body.status !== 'processing' && res.body.status !== 'in_progress' ? res.body : undefined;
    });
    // decided by the API key unless a rule already decided it (reviewer_type system)
    if (settled.data.review?.reviewer_type !== 'system') {
      const reviewed = await api.patch(`/v1/checks/fraud_database/${fraud.body.id}/review`, {
        action: 'approve',
        comment: 'Checked by our back office',
        ...(settled.status === 'approved' || settled.status === 'rejected' ? { override: true } : {}),
      });
      assert.equal(reviewed.status, 200, JSON.stringify(reviewed.body));
    }
    const by = (await api.get(`/v1/checks/fraud_database/${fraud.body.id}`)).body.data.review.reviewer_type;
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/cases/${caseId}?check=${fraud.body.id}`);
    const panel = page.locator(`#check-${fraud.body.id}`);
    await panel.getByText(/Reviewed by/).waitFor();
    const english = by === 'system' ? 'Reviewed by vericase' : 'Reviewed by the API';
    assert.ok((await shownText(panel)).includes(english), await shownText(panel));
    // its result once, beside its status (not again among the check's data)
    assert.equal((await shownText(panel)).match(/Result/g)?.length, 1, await shownText(panel));
    await page.getByLabel('Language').selectOption('fr');
    await panel.getByText(/Revu par/).waitFor();
    const french = await shownText(panel);
    assert.ok(french.includes(by === 'system' ? 'Revu par vericase' : "Revu par l'API"), french);
    assert.ok(!/Revu par (api|system)/.test(french), french);
    await page.getByLabel('Langue').selectOption('en');
    await page.close();
  });

  test("vericase's own review comment (stored in English) is shown in French in the French console", async () => {
    // the listed person has a name and a birth date: the fraud list is searched, nothing matches,
    // and the check is approved automatically with the rule's comment
    const fraud = await api.post('/v1/checks/fraud_database', { individual_id: elvisId });
    assert.equal(fraud.status, 201, JSON.stringify(fraud.body));
    const settled = await eventually(async () => {
      const res = await api.get(`/v1/checks/fraud_database/${fraud.body.id}`);
      return res.body.status === 'approved' ? res.body : undefined;
    });
    const english = 'Approved automatically (automatic_approval): no match in the fraud list';
    assert.equal(settled.data.review.reviewer_type, 'system');
    assert.equal(settled.data.review.comment, english);
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/cases/${caseId}?check=${fraud.body.id}`);
    const panel = page.locator(`#check-${fraud.body.id}`);
    await panel.getByText(/Reviewed by/).waitFor();
    assert.ok((await shownText(panel)).includes(english), await shownText(panel));
    await page.getByLabel('Language').selectOption('fr');
    await panel.getByText(/Revu par/).waitFor();
    const french = await shownText(panel);
    assert.ok(
      french.includes(
        'Approuvé automatiquement (automatic_approval) : aucune correspondance dans la liste de fraude',
      ),
      french,
    );
    assert.ok(!french.includes('Approved automatically'), french);
    await shot(page, 'automatic-comment-fr');
    // the API still answers the stored English
    const after = await api.get(`/v1/checks/fraud_database/${fraud.body.id}`);
    assert.equal(after.body.data.review.comment, english);
    await page.getByLabel('Langue').selectOption('en');
    await page.close();
  });

  test('a screening that could not run says nothing was screened, warns before approving, and never reads "No hit."', async () => {
    const { ctx } = await getHarness();
    const empty = new ScreeningService({ resolveDir: () => null });
    await empty.load();
    const saved = ctx.screening;
    let id: string;
    try {
      ctx.screening = empty;
      const aml = await api.post('/v1/checks/aml', { individual_id: elvisId });
      assert.equal(aml.status, 201, JSON.stringify(aml.body));
      id = aml.body.id;
      await eventually(async () => {
        const res = await api.get(`/v1/checks/aml/${id}`);
        return res.body.status === 'need_review' || undefined;
      });
    } finally {
      ctx.screening = saved;
    }
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/cases/${caseId}?check=${id}`);
    const panel = page.locator(`#check-${id}`);
    await panel.getByText('Not screened: no sanctions list was loaded when the check ran.').waitFor();
    const warning = panel.getByTestId('check-not-screened');
    await warning.waitFor();
    assert.match((await warning.textContent()) ?? '', /^Nothing was screened: approving records/);
    // the approve button is described by the warning, read with it
    const approve = panel.getByRole('button', { name: 'Approve', exact: true });
    assert.equal(await approve.getAttribute('aria-describedby'), `not-screened-${id}`);
    const shown = await shownText(panel);
    assert.ok(!shown.includes('No hit.'), shown);
    // the reason in the analyst's words, no environment variable or admin endpoint
    assert.doesNotMatch(shown, /VERICASE_|\/admin\//);
    await shot(page, 'aml-not-screened');
    await approve.click();
    await eventually(
      async () => (await api.get(`/v1/checks/aml/${id}`)).body.status === 'approved' || undefined,
    );
    // decided, it still says it was never screened
    await panel.getByText('Not screened: no sanctions list was loaded when the check ran.').waitFor();
    await page.getByLabel('Language').selectOption('fr');
    await panel
      .getByText('Non criblé : aucune liste de sanctions n’était chargée quand le contrôle a été lancé.')
      .waitFor();
    await page.getByLabel('Langue').selectOption('en');
    await page.close();
  });

  test("a signature the signer declined reads as their refusal, with their reason, not as vericase's review", async () => {
    const key = 'decline_letter';
    assert.equal(
      (
        await api.post('/v1/document-templates', {
          key,
          name: 'Engagement letter',
          kind: 'electronic_signature',
        })
      ).status,
      201,
    );
    const version = await api.post(`/v1/document-templates/${key}/versions`, {
      content: '<html><body><h1>Engagement letter</h1></body></html>',
    });
    assert.equal(version.status, 201, JSON.stringify(version.body));
    await api.post(`/v1/document-templates/${key}/versions/${version.body.number}/publish`);
    const c = await portalCase(api, 'Declined signature');
    const check = await api.post('/v1/checks/electronic_signature', {
      individual_id: c.contactId,
      settings: { document_template_key: key },
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    const { token } = await portalToken(api, c.caseId, c.contactId);
    const { app } = await getHarness();
    for (const [step, payload] of [
      ['start', undefined],
      ['decline', { reason: 'I am not authorised to sign for the company.' }],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: `/portal/api/actions/${check.body.id}/signature/${step}`,
        headers: { authorization: `Bearer ${token}` },
        ...(payload ? { payload } : {}),
      });
      assert.equal(res.statusCode, 200, res.body);
    }
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/cases/${c.caseId}?check=${check.body.id}`);
    const declined = page.locator(`#check-${check.body.id}`).getByTestId('check-declined');
    assert.match(
      (await declined.textContent()) ?? '',
      /^Declined by the signer on .+ — I am not authorised to sign for the company\.$/,
    );
    assert.doesNotMatch(await page.locator(`#check-${check.body.id}`).innerText(), /Reviewed by vericase/);
    // nothing was signed, so there is no document to open: no "See its documents" (walk 54)
    assert.equal(
      await page.locator(`#check-${check.body.id}`).getByTestId('check-show-documents').count(),
      0,
    );
    const request = page.locator(`#check-${check.body.id}`).getByTestId('signature-request');
    assert.match(await request.innerText(), /Signature request\s+Declined by the signer/);
    // decided: no warning that a review would end the request
    assert.equal(await page.locator(`#check-${check.body.id}`).getByTestId('check-unsigned').count(), 0);
    // an operator's override keeps the signer's refusal and reason, and shows the review under it
    const override = await api.patch(`/v1/checks/electronic_signature/${check.body.id}/review`, {
      action: 'approve',
      comment: 'Signed on paper at the branch.',
      override: true,
    });
    assert.equal(override.status, 200, JSON.stringify(override.body));
    await page.reload();
    const panel = page.locator(`#check-${check.body.id}`);
    await panel
      .getByText(/Signed on paper at the branch\./)
      .first()
      .waitFor();
    assert.match(
      (await panel.getByTestId('check-declined').textContent()) ?? '',
      /^Declined by the signer on .+ — I am not authorised to sign for the company\.$/,
    );
    await shot(page, 'signature-declined-overridden');
    // in French: the signer refused to sign (no feminine past participle for a "contrôle")
    await page.getByLabel('Language').selectOption('fr');
    await panel.getByText(/Le signataire a refusé de signer le /).waitFor();
    await page.getByLabel('Langue').selectOption('en');
    await panel.getByText(/Declined by the signer on /).waitFor();
    await page.close();
  });

  test('a signature waiting for its signer says who is to sign what, and that a review now ends the request', async () => {
    const key = 'waiting_letter';
    assert.equal(
      (
        await api.post('/v1/document-templates', {
          key,
          name: 'Mandate letter',
          kind: 'electronic_signature',
        })
      ).status,
      201,
    );
    const version = await api.post(`/v1/document-templates/${key}/versions`, {
      content: '<html><body><h1>Mandate letter</h1></body></html>',
    });
    await api.post(`/v1/document-templates/${key}/versions/${version.body.number}/publish`);
    const c = await portalCase(api, 'Waiting signature');
    const check = await api.post('/v1/checks/electronic_signature', {
      individual_id: c.contactId,
      settings: { document_template_key: key },
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    const page = await signedIn(reviewer);
    const panel = page.locator(`#check-${check.body.id}`);
    const request = panel.getByTestId('signature-request');
    const open = async () => {
      await page.goto(`${base}/console/cases/${c.caseId}?check=${check.body.id}`);
      await request.waitFor();
    };
    await open();
    // the template's name comes with the workspace's templates, which may answer after the check:
    // the key stands in until then
    await request.getByText('Mandate letter').waitFor();
    // Ada Lovelace is to sign the mandate letter; she has not opened the portal
    const before = await request.innerText();
    assert.match(before, /Signer\s+Ada Lovelace/);
    assert.match(before, /Document\s+Mandate letter/);
    assert.match(before, /Signature request\s+Not started: the signer has not opened the portal yet/);
    assert.doesNotMatch(before, /Started\s/);
    // the check waits for its signer: said so, where other types wait for "data"
    assert.match(await panel.innerText(), /Status\s+Waiting for the signer/);
    const row = page.locator(`[data-check-id="${check.body.id}"]`);
    assert.equal(await row.locator('.case-status').textContent(), 'Waiting for the signer');
    const unsigned = panel.getByTestId('check-unsigned');
    assert.match(
      (await unsigned.textContent()) ?? '',
      /^Not signed yet\. Approving or rejecting now ends the signature request/,
    );
    const approve = panel.getByRole('button', { name: 'Approve' });
    assert.equal(await approve.getAttribute('aria-describedby'), `unsigned-${check.body.id}`);

    // she opens it in the portal: started, with its link's expiry
    const { token } = await portalToken(api, c.caseId, c.contactId);
    const { app } = await getHarness();
    const started = await app.inject({
      method: 'POST',
      url: `/portal/api/actions/${check.body.id}/signature/start`,
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(started.statusCode, 200, started.body);
    await open();
    const during = await request.innerText();
    assert.match(during, /Signature request\s+Started, not signed yet/);
    assert.match(during, /Started\s+\S/);
    assert.match(during, /Link expires\s+\S/);
    await shot(page, 'signature-waiting');

    // the reviewer approves it anyway (signed on paper): the request ends
    await approve.click();
    await panel.getByText('Ended by a review').waitFor();
    // the request's end and the check's decision may be painted a moment apart: waited for (an
    // immediate count failed now and then under load)
    await panel.getByTestId('check-unsigned').waitFor({ state: 'detached', timeout: 10_000 });
    const after = await api.get(`/v1/checks/electronic_signature/${check.body.id}`);
    assert.equal(after.body.status, 'approved');
    assert.equal(after.body.data.vendor.status, 'cancelled');
    assert.match(await request.innerText(), /Ended\s+\S/);
    await page.close();
  });

  test('an eKYC check shows its decision, score, reading and fraud signals, in French too', async () => {
    const created = await api.post('/v1/cases', {
      name: 'eKYC case',
      companies: [{ type: 'main', name: 'Ekyc Co', country: 'FR' }],
      individuals: [
        {
          first_name: 'Ines',
          // the sandbox decides from the last name: inconclusive, score 50 (docs/sandbox.md)
          last_name: 'Inconclusive',
          birth_date: '1990-04-05',
          email: 'ines@example.com',
          phone_number: '+33612345678',
          address: { country: 'FR' },
          relations: [{ roles: ['legal_representative'] }],
        },
      ],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const check = await api.post('/v1/checks/ekyc', { individual_id: created.body.individuals[0].id });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    assert.equal(check.body.data.decision, 'inconclusive');
    const signals = check.body.data.fraud_signals;
    assert.ok(signals, 'an e-mail and a phone: fraud signals');
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/cases/${created.body.id}?check=${check.body.id}`);
    const result = page.locator(`#check-${check.body.id}`).getByTestId('ekyc-result');
    await result.waitFor();
    const text = await result.innerText();
    assert.match(text, /Decision\s+Inconclusive/);
    assert.match(text, /Score\s+50\/100/);
    assert.match(text, /Country\s+France \(FR\)/);
    assert.ok(text.includes(check.body.data.ai.interpretation), text);
    assert.match(text, /Fraud signals/);
    const band = (b: string) => b.replace('_', ' ');
    assert.ok(
      text.includes(`Trust\n${signals.trust.score}/100 (${band(signals.trust.band)} trust)`) ||
        new RegExp(`Trust\\s+${signals.trust.score}/100 \\(${band(signals.trust.band)} trust\\)`).test(text),
      text,
    );
    // a fraud score's band says it is a risk (a trust's, that it is trust)
    assert.match(text, /Fraud score\s+\d+\/100 \([a-z ]+ risk\)/);
    assert.match(text, /E-mail address valid\s+Yes/);
    assert.match(text, /Phone number valid\s+Yes/);
    assert.match(text, /Phone line\s+mobile/);
    // an eKYC check is internal (spec), but no client is ever asked for one: the row does not say
    // "not asked of the client" (an internal document check's does: console-details.test.ts)
    const row = page.locator(`[data-check-id="${check.body.id}"]`);
    assert.equal(await row.getByTitle(/the client is never asked for it in the portal/).count(), 0);
    assert.doesNotMatch(await row.innerText(), /asked of the client/);
    await shot(page, 'ekyc');
    await page.getByLabel('Language').selectOption('fr');
    await result.getByText('Signaux de fraude').waitFor();
    const french = await result.innerText();
    assert.match(french, /Décision\s+Non concluant/);
    assert.match(french, /Pays\s+France \(FR\)/);
    assert.match(french, /Adresse e-mail valide\s+Oui/);
    // vericase's reading, built from the decision, country and score, is said in French too
    assert.equal(
      (await result.getByTestId('ekyc-reading').innerText()).trim(),
      'Les sources de données pour FR n’ont pu ni confirmer ni contredire l’identité déclarée (score 50/100).',
    );
    assert.ok(!french.includes(check.body.data.ai.interpretation), french);
    await shot(page, 'ekyc-fr');
    // the choice is kept in this browser: back to English for the tests after this one
    await page.getByLabel('Langue').selectOption('en');
    await result.getByText('Fraud signals').waitFor();
    await page.close();
  });

  test('an online reputation check to review shows its summary, its report and its sources', async () => {
    const created = await api.post('/v1/cases', {
      name: 'Reputation case',
      // the sandbox reads the name: a high risk, to review (docs/sandbox.md)
      companies: [{ type: 'main', name: 'Leman Participations High Risk SARL', country: 'CH' }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const check = await api.post('/v1/checks/online_reputation', {
      company_id: created.body.companies[0].id,
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    const decided = await eventually(async () => {
      const c = await api.get(`/v1/checks/online_reputation/${check.body.id}`);
      return c.body.status === 'need_review' && c.body;
    }, 60_000);
    const info = decided.data.information;
    assert.ok(info.summary && info.sources.length > 0, JSON.stringify(info));
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/cases/${created.body.id}?check=${check.body.id}`);
    const report = page.locator(`#check-${check.body.id}`).getByTestId('reputation-report');
    await report.waitFor();
    assert.ok((await report.innerText()).includes(info.summary), await report.innerText());
    const links = report.getByRole('link');
    assert.equal(await links.count(), info.sources.length);
    assert.equal(await links.first().getAttribute('href'), info.sources[0].url);
    assert.equal(await links.first().getAttribute('rel'), 'noopener noreferrer nofollow');
    await report.getByText('The full report').click();
    await report.locator('.reputation-report').waitFor();
    // why it waits, with the risk in words (the stored comment ends with the code `high`)
    const panel = page.locator(`#check-${check.body.id}`);
    assert.equal(
      decided.data.review.comment,
      'Needs a review: the online reputation analysis rated the risk high',
    );
    // the reason alone ("Needs a review:" after "Why it waits for a review:" said it twice)
    assert.ok(
      (await shownText(panel)).includes(
        'Why it waits for a review: the online reputation analysis rated the risk as high',
      ),
      await shownText(panel),
    );
    assert.ok(!(await shownText(panel)).includes('Needs a review'), await shownText(panel));
    // the provider's prose is its own: marked as English, and no note in an English console
    assert.equal(await report.locator('p[lang="en"]').first().innerText(), info.summary);
    assert.equal(await report.locator('.reputation-report').getAttribute('lang'), 'en');
    assert.equal(await links.first().getAttribute('lang'), 'en');
    assert.equal(await report.getByTestId('provider-text-note').count(), 0);
    await shot(page, 'online-reputation');
    await page.getByLabel('Language').selectOption('fr');
    await report.getByTestId('provider-text-note').waitFor();
    const french = await shownText(panel);
    // "un contrôle" is masculine: the line reads "Pourquoi il attend", not "elle"
    assert.ok(french.includes('Pourquoi il attend une revue :'), french);
    assert.ok(
      french.includes(
        'Pourquoi il attend une revue : l’analyse de la réputation en ligne a évalué le risque : élevé',
      ),
      french,
    );
    assert.ok(!french.includes('risque : high'), french);
    assert.equal(
      (await report.getByTestId('provider-text-note').innerText()).trim(),
      'Texte du fournisseur, tel qu’il l’a écrit (en anglais).',
    );
    await shot(page, 'online-reputation-fr');
    await page.getByLabel('Langue').selectOption('en');
    await report.getByText('The full report').waitFor();
    await page.close();
  });

  test('a hit on a listed organisation shows no birth dates, gender or nationalities rows', async () => {
    const created = await api.post('/v1/cases', {
      name: 'Listed bank case',
      companies: [{ type: 'main', name: 'Banco Nacional de Cuba', country: 'CU' }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const aml = await api.post('/v1/checks/aml', { company_id: created.body.companies[0].id });
    assert.equal(aml.status, 201, JSON.stringify(aml.body));
    const screened = await eventually(async () => {
      const res = await api.get(`/v1/checks/aml/${aml.body.id}`);
      return res.body.status !== 'processing' ? res.body : undefined;
    });
    const org = screened.data.hits.find((h: { entity: { kind: string } }) => h.entity.kind !== 'person');
    assert.ok(org, JSON.stringify(screened.data.hits.map((h: { name: string }) => h.name)));
    const page = await signedIn(reviewer);
    await page.goto(`${base}/console/cases/${created.body.id}?check=${aml.body.id}`);
    const listed = page.locator(`#check-${aml.body.id} .hit-side`).nth(1);
    await listed.getByText('Programmes').waitFor();
    const text = await listed.innerText();
    for (const row of ['Birth dates', 'Gender', 'Nationalities']) assert.ok(!text.includes(row), text);
    await page.close();
  });
});
