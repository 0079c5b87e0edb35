import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { purgeWithdrawnLinks } from '../src/client-portals/purge-withdrawn-links.ts';
import { type Client, getHarness, newWorkspace } from './helpers/harness.ts';
import { passportPng } from './helpers/id-documents.ts';
import { portal, portalCase, portalToken, portalUpload } from './helpers/portal.ts';

// A contact's portal links stop working once an update makes them no longer a contact of the case
// (marked not relevant, no longer a business contact, e-mail removed or changed), through the
// public API only, answered as a replaced link is (401 PORTAL_LINK_REVOKED); restoring the contact
// does not bring a link back (docs/client-portal.md, "Lifetime and revocation").

async function idDocument(api: Client, individualId: string) {
  const res = await api.post('/v1/checks/id_document', { individual_id: individualId });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
}

async function linkRow(linkId: string) {
  const { ctx } = await getHarness();
  return ctx.db.selectFrom('client_portal_links').selectAll().where('id', '=', linkId).executeTakeFirst();
}

/** Every route the page calls answers the revoked link's 401, with its code and message. */
async function assertRevoked(token: string, checkId: string) {
  const session = await portal(token, 'GET', '/session');
  assert.equal(session.status, 401, JSON.stringify(session.body));
  assert.equal(session.body.code, 'PORTAL_LINK_REVOKED');
  assert.equal(session.body.message, 'This portal link was replaced or withdrawn: ask for a new one');
  const upload = await portalUpload(token, checkId, 'front', passportPng());
  assert.equal(upload.status, 401);
  assert.equal(upload.body.code, 'PORTAL_LINK_REVOKED');
  const submit = await portal(token, 'POST', `/actions/${checkId}/submit`);
  assert.equal(submit.status, 401);
  assert.equal(submit.body.code, 'PORTAL_LINK_REVOKED');
}

/** A case whose contact Ada has a live link, and whose Alan is a second contact with a link of his own. */
async function twoContacts(api: Client) {
  const ids = await portalCase(api);
  const alan = await api.patch(`/v1/individuals/${ids.alanId}`, {
    email: 'alan@example.com',
    is_business_contact: true,
  });
  assert.equal(alan.status, 200, JSON.stringify(alan.body));
  const check = await idDocument(api, ids.contactId);
  const ada = await portalToken(api, ids.caseId, ids.contactId);
  const alanLink = await portalToken(api, ids.caseId, ids.alanId);
  assert.equal((await portal(ada.token, 'GET', '/session')).status, 200);
  return { ...ids, check, ada, alan: alanLink };
}

const LEAVING: [
  string,
  (api: Client, id: string) => Promise<unknown>,
  (api: Client, id: string) => Promise<unknown>,
][] = [
  [
    'marked not relevant (set-relevant)',
    (api, id) => api.post(`/v1/individuals/${id}/set-relevant`, { is_relevant: false }),
    (api, id) => api.post(`/v1/individuals/${id}/set-relevant`, { is_relevant: true }),
  ],
  [
    'no longer a business contact',
    (api, id) => api.patch(`/v1/individuals/${id}`, { is_business_contact: false }),
    (api, id) => api.patch(`/v1/individuals/${id}`, { is_business_contact: true }),
  ],
  [
    'e-mail removed',
    (api, id) => api.patch(`/v1/individuals/${id}`, { email: null }),
    (api, id) => api.patch(`/v1/individuals/${id}`, { email: 'ada@example.com' }),
  ],
  [
    'e-mail changed to another address',
    (api, id) => api.patch(`/v1/individuals/${id}`, { email: 'ada.lovelace@example.org' }),
    (api, id) => api.patch(`/v1/individuals/${id}`, { email: 'ada@example.com' }),
  ],
];

describe('portal: a contact who leaves the case loses their links', () => {
  for (const [what, leave, restore] of LEAVING) {
    test(`${what}: the link is revoked on every route; restoring the contact does not bring it back; a new link works`, async () => {
      const api = await newWorkspace();
      const w = await twoContacts(api);
      const res = (await leave(api, w.contactId)) as { status: number; body: unknown };
      assert.equal(res.status, 200, JSON.stringify(res.body));
      await assertRevoked(w.ada.token, w.check);
      const row = await linkRow(w.ada.linkId);
      assert.ok(row?.revoked_at, 'stored as revoked, in the update’s transaction');
      // the other contact of the case keeps theirs
      assert.equal((await portal(w.alan.token, 'GET', '/session')).status, 200);
      assert.equal((await linkRow(w.alan.linkId))?.revoked_at, null);

      const back = (await restore(api, w.contactId)) as { status: number; body: unknown };
      assert.equal(back.status, 200, JSON.stringify(back.body));
      await assertRevoked(w.ada.token, w.check);
      const again = await portalToken(api, w.caseId, w.contactId);
      const session = await portal(again.token, 'GET', '/session');
      assert.equal(session.status, 200);
      assert.deepEqual(
        session.body.actions.map((a: { id: string }) => a.id),
        [w.check],
      );
    });
  }

  test('changes that leave the person the same contact keep the link working', async () => {
    const api = await newWorkspace();
    const w = await twoContacts(api);
    for (const body of [
      { last_name: 'King' },
      { email: 'ADA@Example.com' },
      { is_business_contact: true },
      { is_beneficial_owner: true },
    ]) {
      const res = await api.patch(`/v1/individuals/${w.contactId}`, body);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const session = await portal(w.ada.token, 'GET', '/session');
      assert.equal(session.status, 200, `${JSON.stringify(body)}: ${JSON.stringify(session.body)}`);
    }
    const relevant = await api.post(`/v1/individuals/${w.contactId}/set-relevant`, { is_relevant: true });
    assert.equal(relevant.status, 200);
    assert.equal((await portal(w.ada.token, 'GET', '/session')).status, 200);
    // another individual leaving touches no one else's link
    assert.equal(
      (await api.post(`/v1/individuals/${w.graceId}/set-relevant`, { is_relevant: false })).status,
      200,
    );
    assert.equal((await portal(w.ada.token, 'GET', '/session')).status, 200);
    assert.equal((await linkRow(w.ada.linkId))?.revoked_at, null);
  });

  test("an id_verification's verification URL survives the contact flag and the e-mail, not relevance", async () => {
    const api = await newWorkspace();
    const w = await twoContacts(api);
    const idv = await api.post('/v1/checks/id_verification', { individual_id: w.contactId });
    assert.equal(idv.status, 201, JSON.stringify(idv.body));
    const url: string = idv.body.data.vendor.verification_url;
    const verification = new URL(url).hash.replace(/^#token=/, '');
    assert.equal((await portal(verification, 'GET', '/session')).body.scope, 'check');

    assert.equal(
      (await api.patch(`/v1/individuals/${w.contactId}`, { is_business_contact: false })).status,
      200,
    );
    assert.equal((await api.patch(`/v1/individuals/${w.contactId}`, { email: null })).status, 200);
    await assertRevoked(w.ada.token, w.check);
    // given for the check of any individual of the case: neither the flag nor the e-mail gave it
    const still = await portal(verification, 'GET', '/session');
    assert.equal(still.status, 200, JSON.stringify(still.body));
    assert.deepEqual(
      still.body.actions.map((a: { id: string }) => a.id),
      [idv.body.id],
    );

    assert.equal(
      (await api.post(`/v1/individuals/${w.contactId}/set-relevant`, { is_relevant: false })).status,
      200,
    );
    await assertRevoked(verification, idv.body.id);
  });

  test('a deleted contact: their links (case-wide and their checks’) answer as withdrawn, not as unknown', async () => {
    const api = await newWorkspace();
    const w = await twoContacts(api);
    const idv = await api.post('/v1/checks/id_verification', { individual_id: w.contactId });
    assert.equal(idv.status, 201, JSON.stringify(idv.body));
    const verification = new URL(idv.body.data.vendor.verification_url).hash.replace(/^#token=/, '');
    assert.equal((await portal(verification, 'GET', '/session')).status, 200);
    assert.equal((await api.delete(`/v1/individuals/${w.contactId}`)).status, 204);
    await assertRevoked(w.ada.token, w.check);
    await assertRevoked(verification, idv.body.id);
    // the link rows went with the person; only the tokens' hashes are kept
    assert.equal(await linkRow(w.ada.linkId), undefined);
    assert.equal((await portal(w.alan.token, 'GET', '/session')).status, 200);
    // a token that never was a link is still unknown
    const unknown = await portal(`vcp_${'x'.repeat(43)}`, 'GET', '/session');
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.code, 'PORTAL_LINK_UNKNOWN');
  });

  test('a deleted check: its own link answers as withdrawn; the contact’s case-wide link keeps working', async () => {
    const api = await newWorkspace();
    const w = await twoContacts(api);
    const idv = await api.post('/v1/checks/id_verification', { individual_id: w.contactId });
    assert.equal(idv.status, 201, JSON.stringify(idv.body));
    const verification = new URL(idv.body.data.vendor.verification_url).hash.replace(/^#token=/, '');
    assert.equal((await portal(verification, 'GET', '/session')).status, 200);
    assert.equal((await api.delete(`/v1/checks/${idv.body.id}`)).status, 204);
    const session = await portal(verification, 'GET', '/session');
    assert.equal(session.status, 401, JSON.stringify(session.body));
    assert.equal(session.body.code, 'PORTAL_LINK_REVOKED');
    assert.equal((await portal(w.ada.token, 'GET', '/session')).status, 200);
  });
});

/** The withdrawn-link rows of a workspace: what an erasure or a deletion keeps of its links. */
async function withdrawnRows(workspaceId: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('client_portal_withdrawn_links')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .execute();
}

async function assertUnknown(token: string) {
  const session = await portal(token, 'GET', '/session');
  assert.equal(session.status, 401, JSON.stringify(session.body));
  assert.equal(session.body.code, 'PORTAL_LINK_UNKNOWN');
}

describe('portal: an erased case’s links answer as withdrawn until they would have expired', () => {
  test('an erasure (permanent delete): every link of the case, its checks’ included, answers PORTAL_LINK_REVOKED; only hashes are kept', async () => {
    const api = await newWorkspace();
    const w = await twoContacts(api);
    const idv = await api.post('/v1/checks/id_verification', { individual_id: w.contactId });
    assert.equal(idv.status, 201, JSON.stringify(idv.body));
    const verification = new URL(idv.body.data.vendor.verification_url).hash.replace(/^#token=/, '');
    assert.equal((await portal(verification, 'GET', '/session')).status, 200);
    // another case of the workspace keeps its link
    const other = await portalCase(api, 'Other case');
    const kept = await portalToken(api, other.caseId, other.contactId);

    assert.equal((await api.delete(`/v1/cases/${w.caseId}?permanent=true`)).status, 204);
    await assertRevoked(w.ada.token, w.check);
    await assertRevoked(w.alan.token, w.check);
    await assertRevoked(verification, idv.body.id);
    assert.equal(await linkRow(w.ada.linkId), undefined, 'the link rows went with the case');
    assert.equal((await portal(kept.token, 'GET', '/session')).status, 200);
    // what is kept: a hash, the workspace and the link's expiry; no case id, nothing of a person
    const rows = await withdrawnRows(api.workspaceId);
    assert.equal(rows.length, 3);
    for (const row of rows) {
      assert.deepEqual(Object.keys(row).sort(), ['expires_at', 'token_hash', 'withdrawn_at', 'workspace_id']);
      assert.match(row.token_hash, /^[0-9a-f]{64}$/);
    }
    await assertUnknown(`vcp_${'x'.repeat(43)}`);
  });

  test('a soft-deleted case then erased: its (revoked) links keep answering PORTAL_LINK_REVOKED', async () => {
    const api = await newWorkspace();
    const w = await twoContacts(api);
    assert.equal((await api.delete(`/v1/cases/${w.caseId}`)).status, 204);
    await assertRevoked(w.ada.token, w.check);
    assert.equal((await api.delete(`/v1/cases/${w.caseId}?permanent=true`)).status, 204);
    await assertRevoked(w.ada.token, w.check);
    await assertRevoked(w.alan.token, w.check);
  });

  test('past the time the link would have expired, a withdrawn token is unknown and its hash is dropped', async () => {
    const api = await newWorkspace();
    const w = await twoContacts(api);
    const { ctx } = await getHarness();
    // Alan's link is already expired when the case is erased: nothing is kept of it
    await ctx.db
      .updateTable('client_portal_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', w.alan.linkId)
      .execute();
    const expired = await portal(w.alan.token, 'GET', '/session');
    assert.equal(expired.body.code, 'PORTAL_LINK_EXPIRED');
    assert.equal((await api.delete(`/v1/cases/${w.caseId}?permanent=true`)).status, 204);
    await assertUnknown(w.alan.token);
    assert.equal((await withdrawnRows(api.workspaceId)).length, 1, "only Ada's link is kept");
    await assertRevoked(w.ada.token, w.check);

    // time passes: Ada's link would have expired by now (moved back in the database)
    await ctx.db
      .updateTable('client_portal_withdrawn_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('workspace_id', '=', api.workspaceId)
      .execute();
    await assertUnknown(w.ada.token);
    // the next withdrawal in the workspace drops the hashes that serve no more
    const next = await twoContacts(api);
    assert.equal((await api.delete(`/v1/checks/${next.check}`)).status, 204);
    assert.equal((await withdrawnRows(api.workspaceId)).length, 0);
    assert.equal((await api.delete(`/v1/individuals/${next.contactId}`)).status, 204);
    const rows = await withdrawnRows(api.workspaceId);
    assert.equal(rows.length, 1, "Ada's second link, withdrawn with her");
    await assertRevoked(next.ada.token, next.check);
  });

  test('the daily purge drops the hashes past their link’s expiry in every workspace, and keeps the live ones', async () => {
    const quiet = await newWorkspace();
    const busy = await newWorkspace();
    const q = await twoContacts(quiet);
    const b = await twoContacts(busy);
    assert.equal((await quiet.delete(`/v1/cases/${q.caseId}?permanent=true`)).status, 204);
    assert.equal((await busy.delete(`/v1/cases/${b.caseId}?permanent=true`)).status, 204);
    assert.equal((await withdrawnRows(quiet.workspaceId)).length, 2);
    // the quiet workspace's links would have expired by now; it withdraws nothing more
    const { ctx } = await getHarness();
    await ctx.db
      .updateTable('client_portal_withdrawn_links')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('workspace_id', '=', quiet.workspaceId)
      .execute();

    assert.ok((await purgeWithdrawnLinks(ctx.db)) >= 2);
    assert.equal((await withdrawnRows(quiet.workspaceId)).length, 0);
    assert.equal((await withdrawnRows(busy.workspaceId)).length, 2, 'hashes of links still live are kept');
    await assertRevoked(b.ada.token, b.check);
    await assertUnknown(q.ada.token);
  });
});
