import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

/**
 * Workspace settings: PATCH merges key by key; PUT replaces, so a setting it leaves out takes its
 * default again. PATCH cannot reset a setting whose null is a value of its own (no limit, no review
 * due).
 */
describe('workspace settings', () => {
  test('PATCH merges; PUT replaces: what it leaves out is back to its default, PUT {} resets all', async () => {
    const api = await newWorkspace('settings-reset');
    const defaults = (await api.get('/v1/workspace/settings')).body;
    assert.equal(defaults.case_review.frequency_in_months.low, 36);
    // every setting shows its default, the check limit's null (no limit) included
    assert.equal(defaults.checks.limit, null);

    const patched = await api.patch('/v1/workspace/settings', {
      case_review: { frequency_in_months: { low: null, high: 3 } },
      checks: { limit: 5, aml: { fuzziness: 0.9 } },
      company_data: { fetch_limit: 10 },
    });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.case_review.frequency_in_months.low, null);
    assert.equal(patched.body.case_review.frequency_in_months.medium, 24);

    // PUT keeps only what it gives
    const replaced = await api.put('/v1/workspace/settings', { checks: { limit: 7 } });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    assert.deepEqual(replaced.body.case_review, defaults.case_review);
    assert.equal(replaced.body.checks.limit, 7);
    assert.equal(replaced.body.checks.aml, undefined);
    assert.equal(replaced.body.company_data.fetch_limit, null);
    assert.deepEqual((await api.get('/v1/workspace/settings')).body, replaced.body);

    // PUT {} resets every setting; a PUT with no body is the same
    const reset = await api.put('/v1/workspace/settings', {});
    assert.equal(reset.status, 200);
    assert.deepEqual(reset.body, defaults);
    await api.patch('/v1/workspace/settings', { risk: { online_engines: true } });
    const { app } = await getHarness();
    const noBody = await app.inject({
      method: 'PUT',
      url: '/v1/workspace/settings',
      headers: { 'x-service-api-key': api.key },
    });
    assert.equal(noBody.statusCode, 200, noBody.body);
    assert.deepEqual((await api.get('/v1/workspace/settings')).body, defaults);
  });

  test('PUT is validated as PATCH is: an unknown or invalid setting → 400 naming it, nothing stored', async () => {
    const api = await newWorkspace('settings-put-invalid');
    await api.patch('/v1/workspace/settings', { case_review: { comment_mandatory: true } });
    const unknown = await api.put('/v1/workspace/settings', { case_review: { surprise: 1 } });
    assert.equal(unknown.status, 400);
    assert.match(JSON.stringify(unknown.body), /surprise/);
    const invalid = await api.put('/v1/workspace/settings', { checks: { limit: -1 } });
    assert.equal(invalid.status, 400);
    assert.match(JSON.stringify(invalid.body), /limit/);
    assert.equal((await api.get('/v1/workspace/settings')).body.case_review.comment_mandatory, true);
  });

  test("PATCH null unsets a check type's default: the check resolves it from the API default again", async () => {
    const api = await newWorkspace('settings-unset');
    const set = await api.patch('/v1/workspace/settings', {
      checks: {
        id_verification: {
          mode: 'expert',
          automatic_approval: false,
          redirect_url: 'https://example.com/done',
        },
        id_document: { automatic_rejection: false },
      },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.checks.id_verification.mode, 'expert');

    const unset = await api.patch('/v1/workspace/settings', {
      checks: {
        id_verification: { mode: null, redirect_url: null },
        id_document: { automatic_rejection: null },
      },
    });
    assert.equal(unset.status, 200, JSON.stringify(unset.body));
    // mode is gone (unset), automatic_approval is kept, redirect_url's null is a value of its own
    assert.deepEqual(unset.body.checks.id_verification, { automatic_approval: false, redirect_url: null });
    assert.deepEqual(unset.body.checks.id_document, {});
    assert.deepEqual((await api.get('/v1/workspace/settings')).body, unset.body);

    // a new check resolves mode from the API default (auto), automatic_approval from the workspace
    const c = (await api.post('/v1/cases', sampleCaseBody())).body;
    const check = await api.post('/v1/checks/id_verification', { individual_id: c.individuals[0].id });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    assert.equal(check.body.data.settings.mode, 'auto');
    assert.equal(check.body.data.settings.automatic_approval, false);

    // null stays refused where the schema has no unset (a check type's block itself), and null of
    // the limit is still "no limit", a value
    const bad = await api.patch('/v1/workspace/settings', { checks: { id_verification: null } });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /id_verification/);
    const limit = await api.patch('/v1/workspace/settings', { checks: { limit: null } });
    assert.equal(limit.status, 200);
    assert.equal(limit.body.checks.limit, null);

    // PUT takes the same null: unset, as if left out
    const put = await api.put('/v1/workspace/settings', { checks: { id_verification: { vendor: null } } });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.deepEqual(put.body.checks.id_verification, {});
  });
});
