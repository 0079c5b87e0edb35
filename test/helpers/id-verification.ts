/**
 * id_verification fixtures: Ada Lovelace's passport MRZ (portalCase's contact), creating a check,
 * the capture as the person does it through the portal API with the check's own link, and waiting
 * for the verdict.
 */
import assert from 'node:assert/strict';
import type { Client } from './harness.ts';
import { eventually } from './harness.ts';
import { td3Mrz } from './id-documents.ts';
import { portal, portalCase, portalUpload } from './portal.ts';

/** Ada Lovelace's passport MRZ (portalCase's contact, born 1985-12-10). */
export const ADA_MRZ = td3Mrz({
  lastName: 'LOVELACE',
  firstName: 'ADA',
  birth: '851210',
  sex: 'F',
  expiry: '341231',
});

export const tokenOf = (url: string) => {
  const m = /\/portal\/#token=(vcp_[A-Za-z0-9_-]+)$/.exec(url);
  assert.ok(m, `a portal URL with its token in the fragment: ${url}`);
  return m[1];
};

export async function create(api: Client, body: Record<string, unknown>) {
  const res = await api.post('/v1/checks/id_verification', body, { host: 'idv.example.test:8443' });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Waits until the check left processing; returns it as the API shows it. */
export async function settled(api: Client, id: string) {
  return eventually(async () => {
    const r = await api.get(`/v1/checks/id_verification/${id}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.status !== 'processing' && r.body;
  }, 60_000);
}

/** The contact does the capture through the portal API with the check's own link, then submits. */
export async function captureThroughPortal(token: string, checkId: string, front: Buffer, face: Buffer) {
  const up1 = await portalUpload(token, checkId, 'front', front, 'front.png', 'image/png');
  assert.equal(up1.status, 201, JSON.stringify(up1.body));
  const up2 = await portalUpload(token, checkId, 'face', face, 'selfie.png', 'image/png');
  assert.equal(up2.status, 201, JSON.stringify(up2.body));
  const sub = await portal(token, 'POST', `/actions/${checkId}/submit`);
  assert.equal(sub.status, 200, JSON.stringify(sub.body));
  assert.equal(sub.body.state, 'submitted');
  return sub.body;
}

/** A check for the portal case's contact, captured with these images; returns it settled. */
export async function verified(
  api: Client,
  front: Buffer,
  face: Buffer,
  settings: Record<string, unknown> = {},
) {
  const { contactId, caseId } = await portalCase(api);
  const check = await create(api, { individual_id: contactId, settings });
  await captureThroughPortal(tokenOf(check.data.vendor.verification_url), check.id, front, face);
  return { caseId, contactId, created: check, done: await settled(api, check.id) };
}
