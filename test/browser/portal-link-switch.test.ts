/**
 * A second link opened in the tab of a first one: only the address's fragment changes, so the page
 * is not loaded again. It kept showing the first link's case, the new token left in the address
 * bar, until a reload. The page now switches to the new link's case at once and takes its token
 * out of the address bar, from a working link and from a withdrawn one alike.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openChromium, PHONE } from '../helpers/browser.ts';
import { contactCase, type Operator, operatorClient } from '../helpers/browser-operator.ts';
import { type LiveServer, listen } from '../helpers/live-server.ts';

let server: LiveServer;
let base: string;

before(async () => {
  server = await listen();
  base = `http://127.0.0.1:${server.port}`;
});
after(async () => {
  await server?.close();
});

/** A second case, of another company and contact, asking for a document. */
async function otherCase(op: Operator) {
  const created = await op.ok('POST', '/v1/cases', {
    name: 'Globex onboarding',
    companies: [{ type: 'main', name: 'Globex GmbH', country: 'DE' }],
    individuals: [
      {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
        is_business_contact: true,
        relations: [{ roles: ['legal_representative'] }],
      },
    ],
  });
  return {
    caseId: created.id as string,
    companyId: created.companies[0].id,
    contactId: created.individuals[0].id,
  };
}

async function askDocument(op: Operator, companyId: string) {
  await op.ok('POST', '/v1/checks/document', {
    company_id: companyId,
    settings: { document_type_key: 'registration_certificate' },
  });
}

async function share(op: Operator, caseId: string, contactId: string): Promise<string> {
  const shared = await op.ok('POST', `/v1/cases/${caseId}/share-client-portal-link`, {
    business_contact_id: contactId,
  });
  return shared.link as string;
}

test('a second link in the same tab shows its own case and leaves the address bar', async () => {
  const op = await operatorClient(base, 'portal-link-switch');
  const a = await contactCase(op);
  await askDocument(op, a.companyId);
  const b = await otherCase(op);
  await askDocument(op, b.companyId);
  const withdrawn = await share(op, a.caseId, a.contactId);
  const linkA = await share(op, a.caseId, a.contactId); // withdraws the first
  const linkB = await share(op, b.caseId, b.contactId);

  const chrome = await openChromium({ viewport: PHONE, locale: 'en-US', hasTouch: false });
  try {
    const page = await chrome.context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    // the same document all along: a mark set in it survives only if the page is never loaded again
    const sameDocument = async () => (await page.evaluate('window.__sameDocument === true')) as boolean;
    const hash = async () => (await page.evaluate('location.hash')) as string;
    /** Pastes a link in the address bar of this tab: only its fragment differs from the page's address. */
    const paste = async (link: string) => {
      assert.equal(new URL(link).pathname, new URL(page.url()).pathname);
      await page.evaluate(`location.href = ${JSON.stringify(link)}`);
    };

    // a withdrawn link first, then a working one
    await page.goto(withdrawn);
    await page.getByRole('heading', { level: 1, name: 'This link no longer works' }).waitFor();
    await page.evaluate('window.__sameDocument = true');
    await paste(linkA);
    await page.getByRole('heading', { level: 1, name: 'Hello Ada,' }).waitFor();
    await page.getByText('To complete the verification of Acme SAS', { exact: false }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'This link no longer works' }).count(), 0);
    assert.equal(await hash(), '', 'the token is out of the address bar');

    // then another case's link: its contact, its company, and nothing of the first one
    await paste(linkB);
    await page.getByRole('heading', { level: 1, name: 'Hello Grace,' }).waitFor();
    await page.getByText('To complete the verification of Globex GmbH', { exact: false }).waitFor();
    assert.ok(!(await page.locator('main').innerText()).includes('Acme SAS'));
    assert.equal(await hash(), '', 'the token is out of the address bar');
    assert.equal(await sameDocument(), true, 'no reload: the page switched by itself');

    // the tab keeps the new link: a reload shows the second case
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Hello Grace,' }).waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await chrome.close();
  }
});
