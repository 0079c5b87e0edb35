import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Client, getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

/**
 * What a write that changes nothing effective must leave as it was: the stored settings, the
 * workspace's `updated_at` (microseconds, as stored), the outbox and the activities. The audit log's
 * entries are counted apart: it records every write request, a no-op included (docs/audit-log.md).
 */
async function stored(api: Client) {
  const { ctx } = await getHarness();
  const row = await ctx.db
    .selectFrom('workspaces')
    .select(['settings', sql<string>`updated_at::text`.as('updated_at')])
    .where('id', '=', api.workspaceId)
    .executeTakeFirstOrThrow();
  const events = await ctx.db
    .selectFrom('events')
    .select('seq')
    .where('workspace_id', '=', api.workspaceId)
    .execute();
  const activities = (await api.get('/v1/activities?limit=100')).body.data.length;
  return { settings: row.settings, updated_at: row.updated_at, events: events.length, activities };
}

async function auditEntries(api: Client): Promise<[string, number][]> {
  const res = await api.get('/v1/audit-log?limit=100');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.map((e: { action: string; status_code: number }) => [e.action, e.status_code]);
}

/** Runs `write` (a PATCH or PUT answering 200 with `expected`) and checks it changed nothing. */
async function assertNoop(
  api: Client,
  expected: unknown,
  write: () => Promise<{ status: number; body: unknown }>,
) {
  const before = await stored(api);
  const audited = (await auditEntries(api)).length;
  const res = await write();
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body, expected, 'answers the settings as they are');
  assert.deepEqual(await stored(api), before, 'settings, updated_at, events and activities as they were');
  assert.deepEqual((await api.get('/v1/workspace/settings')).body, expected);
  // the request itself is recorded, as every write is; nothing else is
  const entries = await auditEntries(api);
  assert.equal(entries.length, audited + 1);
  assert.deepEqual(entries[0], ['workspace.settings.update', 200]);
}

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
    // a PUT with nothing in it is a client's mistake, not "reset everything": only {} resets
    assert.equal(noBody.statusCode, 400, noBody.body);
    assert.equal(
      JSON.parse(noBody.body).message,
      'body is required: a PUT replaces every field, and {} resets them all',
    );
    assert.equal((await api.get('/v1/workspace/settings')).body.risk.online_engines, true);
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

  test('GET then PUT or PATCH of the same body changes nothing: nothing stored, updated_at stays', async () => {
    const api = await newWorkspace('settings-noop');
    const fresh = (await api.get('/v1/workspace/settings')).body;
    assert.deepEqual((await stored(api)).settings, {});
    await assertNoop(api, fresh, () => api.put('/v1/workspace/settings', fresh));
    await assertNoop(api, fresh, () => api.patch('/v1/workspace/settings', fresh));
    await assertNoop(api, fresh, () => api.patch('/v1/workspace/settings', {}));
    // a value equal to its default is not stored either: the stored settings stay empty
    await assertNoop(api, fresh, () =>
      api.patch('/v1/workspace/settings', {
        case_review: { comment_mandatory: false },
        checks: { limit: null },
      }),
    );
    assert.deepEqual((await stored(api)).settings, {});

    // a real change moves updated_at, and stores only what differs from the defaults
    const before = await stored(api);
    const changed = await api.put('/v1/workspace/settings', {
      ...fresh,
      case_review: {
        ...fresh.case_review,
        frequency_in_months: { ...fresh.case_review.frequency_in_months, high: 3 },
      },
      checks: { limit: 5, aml: { fuzziness: 0.9 }, id_verification: { mode: 'auto' } },
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const after = await stored(api);
    assert.notEqual(after.updated_at, before.updated_at);
    assert.deepEqual(after.settings, {
      case_review: { frequency_in_months: { high: 3 } },
      checks: { limit: 5, aml: { fuzziness: 0.9 }, id_verification: { mode: 'auto' } },
    });

    // and GET → PUT, or the current values as a PATCH, of the changed settings is a no-op again; a
    // check type's default is kept as given even when it equals the API default (GET shows it)
    const current = (await api.get('/v1/workspace/settings')).body;
    assert.deepEqual(current, changed.body);
    assert.deepEqual(current.checks.id_verification, { mode: 'auto' });
    await assertNoop(api, current, () => api.put('/v1/workspace/settings', current));
    await assertNoop(api, current, () => api.patch('/v1/workspace/settings', current));
    await assertNoop(api, current, () =>
      api.patch('/v1/workspace/settings', { case_review: { frequency_in_months: { high: 3, low: 36 } } }),
    );
    assert.deepEqual((await stored(api)).settings, after.settings);

    // a PATCH back to a default is a change: stored without it, updated_at moves
    const back = await api.patch('/v1/workspace/settings', {
      case_review: { frequency_in_months: { high: 12 } },
    });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    const reverted = await stored(api);
    assert.notEqual(reverted.updated_at, after.updated_at);
    assert.deepEqual(reverted.settings, {
      checks: { limit: 5, aml: { fuzziness: 0.9 }, id_verification: { mode: 'auto' } },
    });
  });

  test('settings stored with their defaults spelled out (written before): GET → PUT leaves them', async () => {
    const api = await newWorkspace('settings-noop-legacy');
    const { ctx } = await getHarness();
    const fresh = (await api.get('/v1/workspace/settings')).body;
    // what a GET → PUT stored before: every default explicitly
    await ctx.db
      .updateTable('workspaces')
      .set({ settings: JSON.stringify({ ...fresh, checks: { ...fresh.checks, aml: { monitoring: true } } }) })
      .where('id', '=', api.workspaceId)
      .execute();
    const current = (await api.get('/v1/workspace/settings')).body;
    assert.equal(current.checks.aml.monitoring, true);
    await assertNoop(api, current, () => api.put('/v1/workspace/settings', current));
    await assertNoop(api, current, () =>
      api.patch('/v1/workspace/settings', { risk: { online_engines: false } }),
    );
    // the next real change stores only what differs
    const res = await api.patch('/v1/workspace/settings', { risk: { online_engines: true } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual((await stored(api)).settings, {
      risk: { online_engines: true },
      checks: { aml: { monitoring: true } },
    });
  });
});
