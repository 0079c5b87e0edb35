/**
 * Links the service issues never take their host from the request: a caller can put any host in
 * `Host` (or `X-Forwarded-Host` behind a trusting proxy), and a link stored in a check, a report or
 * a webhook would then send whoever follows it, API key in hand for a report, to that host. They
 * are built on VERICASE_PUBLIC_URL, else the listen address.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getHarness, newWorkspace } from './helpers/harness.ts';
import { portalCase } from './helpers/portal.ts';

const FORGED = { host: 'attacker.example' };

async function expectedBase(): Promise<string> {
  const { config } = await getHarness();
  if (config.publicUrl) return config.publicUrl;
  assert.ok(['0.0.0.0', '::'].includes(config.host), `the tests listen on every address: ${config.host}`);
  return `http://localhost:${config.port}`;
}

describe('links and the Host header', () => {
  test('portal url, shared link, id_verification URL and report base: the configured base, never the Host header', async () => {
    const base = await expectedBase();
    const api = await newWorkspace();
    const { caseId, contactId: contact } = await portalCase(api, 'Links');

    const portals = await api.get('/v1/client-portals', FORGED);
    assert.equal(portals.status, 200, JSON.stringify(portals.body));
    assert.equal(portals.body.data[0].url, `${base}/portal/`);

    const shared = await api.post(
      `/v1/cases/${caseId}/share-client-portal-link`,
      { business_contact_id: contact },
      FORGED,
    );
    assert.equal(shared.status, 201, JSON.stringify(shared.body));
    assert.ok(shared.body.link.startsWith(`${base}/portal/#token=vcp_`), shared.body.link);

    const idv = await api.post('/v1/checks/id_verification', { individual_id: contact }, FORGED);
    assert.equal(idv.status, 201, JSON.stringify(idv.body));
    const url = idv.body.data.vendor.verification_url as string;
    assert.ok(url.startsWith(`${base}/portal/#token=vcp_`), url);
    const refreshed = await api.post(`/v1/checks/id_verification/${idv.body.id}/refresh_url`, {}, FORGED);
    assert.equal(refreshed.status, 201, JSON.stringify(refreshed.body));
    assert.ok(refreshed.body.data.vendor.verification_url.startsWith(`${base}/portal/`));

    // a report's download_url is built on the base stored with its request
    const report = await api.post(`/v1/cases/${caseId}/generate-report`, {}, FORGED);
    assert.equal(report.status, 204, JSON.stringify(report.body));
    const { ctx } = await getHarness();
    const rows = await ctx.db
      .selectFrom('case_reports')
      .select('base_url')
      .where('workspace_id', '=', api.workspaceId)
      .where('case_id', '=', caseId)
      .execute();
    assert.deepEqual(
      rows.map((r) => r.base_url),
      [base],
    );
  });
});
