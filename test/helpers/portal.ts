/**
 * Client portal API fixtures: a case whose contact is a business contact, links issued for it, and
 * calls to /portal/api with a link's token (never the API key).
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { hashToken, issueLink, linkExpiry } from '../../src/client-portals/links.ts';
import { multipartBody } from './files.ts';
import { type Client, getHarness, type Res } from './harness.ts';

/** A case: main company Acme SAS, the contact Ada (business contact), Alan and Grace. */
export async function portalCase(api: Client, name = 'Portal case') {
  const res = await api.post('/v1/cases', {
    name,
    companies: [{ type: 'main', name: 'Acme SAS', country: 'FR', registration_number: '552100554' }],
    individuals: [
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        birth_date: '1985-12-10',
        is_business_contact: true,
        relations: [{ roles: ['legal_representative'] }],
      },
      { first_name: 'Alan', last_name: 'Turing', relations: [{ roles: ['shareholder'] }] },
      { first_name: 'Grace', last_name: 'Hopper', relations: [{ roles: ['legal_representative'] }] },
    ],
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const [ada, alan, grace] = res.body.individuals as { id: string; first_name: string }[];
  assert.deepEqual(
    [ada.first_name, alan.first_name, grace.first_name],
    ['Ada', 'Alan', 'Grace'],
    'individuals come back in the order given',
  );
  return {
    caseId: res.body.id as string,
    companyId: res.body.companies[0].id as string,
    contactId: ada.id,
    alanId: alan.id,
    graceId: grace.id,
  };
}

/**
 * A link's token for the case and contact: a case-wide link shared through the API, as an operator
 * does; a check link (`checkId`) issued as a check type issues it (id_verification's URL).
 */
export async function portalToken(
  api: Client,
  caseId: string,
  contactId: string,
  checkId: string | null = null,
): Promise<{ token: string; linkId: string }> {
  const { ctx } = await getHarness();
  let token: string;
  if (checkId) {
    const link = await ctx.db.transaction().execute((trx) =>
      issueLink(trx, ctx, {
        workspaceId: api.workspaceId,
        caseId,
        individualId: contactId,
        checkId,
        expiresAt: linkExpiry(ctx),
      }),
    );
    token = link.token;
  } else {
    const shared = await api.post(`/v1/cases/${caseId}/share-client-portal-link`, {
      business_contact_id: contactId,
    });
    assert.equal(shared.status, 201, JSON.stringify(shared.body));
    token = new URL(shared.body.link).hash.replace(/^#token=/, '');
  }
  const row = await ctx.db
    .selectFrom('client_portal_links')
    .select('id')
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirstOrThrow();
  return { token, linkId: row.id };
}

function parse(res: { statusCode: number; body: string; headers: Res['headers'] }): Res {
  const json = String(res.headers['content-type'] ?? '').includes('json') && res.body;
  return { status: res.statusCode, body: json ? JSON.parse(res.body) : res.body, headers: res.headers };
}

/** A call to the portal's API with this token (none when null) and extra headers. */
export async function portal(
  token: string | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  headers: Record<string, string> = {},
): Promise<Res> {
  const { app } = await getHarness();
  const res = await app.inject({
    method,
    url: `/portal/api${url}`,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
  });
  return parse(res);
}

/** Uploads one file to an action's slot through the portal. */
export async function portalUpload(
  token: string,
  checkId: string,
  slot: string,
  data: Buffer,
  filename = 'scan.png',
  contentType?: string,
): Promise<Res> {
  const { app } = await getHarness();
  const { payload, contentType: type } = multipartBody([
    { name: 'file', filename, data, ...(contentType ? { contentType } : {}) },
  ]);
  const res = await app.inject({
    method: 'POST',
    url: `/portal/api/actions/${checkId}/files?slot=${encodeURIComponent(slot)}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': type },
    payload,
  });
  return parse(res);
}

/**
 * An upload caught in flight: its body is sent in two parts, and `meanwhile` runs once the server has
 * started reading it (the request authorised, its handler reading the file) and before the rest is
 * sent, so the request was authorised before `meanwhile` and records its file after it. No timing:
 * the first read of the body is the signal. Answers as soon as the server does if it never reads.
 */
export async function portalUploadInFlight(
  token: string,
  checkId: string,
  slot: string,
  data: Buffer,
  meanwhile: () => Promise<void>,
): Promise<Res> {
  const { app } = await getHarness();
  const { payload, contentType } = multipartBody([{ name: 'file', filename: 'scan.png', data }]);
  // the head of the body, up to a few bytes into the file; the rest once `meanwhile` is done
  const cut = payload.length - data.length + Math.min(8, data.length - 1);
  let reading!: () => void;
  const read = new Promise<'read'>((resolve) => {
    reading = () => resolve('read');
  });
  let started = false;
  const body = new Readable({
    read() {
      if (started) return;
      started = true;
      this.push(payload.subarray(0, cut));
      reading();
    },
  });
  const answer = app.inject({
    method: 'POST',
    url: `/portal/api/actions/${checkId}/files?slot=${encodeURIComponent(slot)}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: body,
  });
  if ((await Promise.race([read, answer])) === 'read') {
    await meanwhile();
    body.push(payload.subarray(cut));
    body.push(null);
  }
  return parse(await answer);
}

/** The case's events of a type, oldest first, with their actor. */
export async function caseEvents(workspaceId: string, caseId: string, type: string) {
  const { ctx } = await getHarness();
  return ctx.db
    .selectFrom('events')
    .select(['type', 'sub_event', 'actor_type', 'actor_id', 'payload'])
    .where('workspace_id', '=', workspaceId)
    .where('case_id', '=', caseId)
    .where('type', '=', type)
    .orderBy('seq')
    .execute();
}
