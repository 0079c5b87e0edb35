import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { sql } from 'kysely';
import { getHarness } from './helpers/harness.ts';
import { startReceiver } from './helpers/receiver.ts';
import { paramKinds, routeTable } from './helpers/route-table.ts';
import {
  buildTenantWorld,
  callAs,
  quiesce,
  worldIds,
  worldTokens,
  writeBodyFor,
} from './helpers/tenant-world.ts';
import { settledSnapshot, snapshotWorkspace } from './helpers/workspace-snapshot.ts';

/**
 * Tenants are walls. Workspace A (the attacker) calls every route of the running app that takes an
 * id, taken from the router itself (hidden routes included), with workspace B's ids: every answer
 * is a 404 (a route the walk cannot fill fails the test, so a new route cannot escape), no answer
 * carries anything of B's, and B's rows are byte for byte the same afterwards. Ids of B given in
 * bodies and list filters get the same treatment.
 */

describe('tenant isolation', { timeout: 300_000 }, () => {
  const receiverStarted = startReceiver();
  after(async () => (await receiverStarted).stop());

  // two full workspaces, their checks and deliveries settled, then a few hundred requests: more than
  // suite's default 60 s on a loaded PGlite run
  const timeout = 240_000;
  test("workspace A's key with workspace B's ids: 404 on every route, nothing of B changes or shows", {
    timeout,
  }, async () => {
    const { app, ctx } = await getHarness();
    const receiver = await receiverStarted;
    const a = await buildTenantWorld('tenant-a', receiver.url('/a'));
    const b = await buildTenantWorld('tenant-b', receiver.url('/b'));
    await quiesce(b.workspaceId);
    const before = await settledSnapshot(ctx.db, b.workspaceId);
    const bTokens = worldTokens(b);

    const failures: string[] = [];
    /** Sends as A; fails when the answer is not `expected` or carries a B token A did not send. */
    const probe = async (expected: number[], method: string, url: string, body?: unknown) => {
      const res = await callAs(a.api, method, url, body);
      const sent = url + JSON.stringify(body ?? null);
      const shown = JSON.stringify(res.body);
      const leaked = bTokens.filter((t) => shown.includes(t) && !sent.includes(t));
      if (!expected.includes(res.status) || leaked.length) {
        failures.push(
          `${method} ${url} ${JSON.stringify(body ?? '')} → ${res.status}${leaked.length ? ` leaking ${leaked.join(', ')}` : ''} ${shown.slice(0, 300)}`,
        );
      }
      return res;
    };

    // 1. every route with a path parameter, from the router, filled with B's ids
    const routes = routeTable(app);
    const unfillable: string[] = [];
    let walked = 0;
    for (const route of routes) {
      if (!route.params.length || route.params.includes('*')) continue;
      // the client portal's routes take a link's token, never an API key (its page's assets take
      // nothing): a token's reach is walked in test/portal-api.test.ts
      if (route.url.startsWith('/portal/')) continue;
      // the console's hashed assets are public files of the build, the same for every workspace;
      // its pages reach data through /v1 with a session, walked in test/console-roles.test.ts
      if (route.url.startsWith('/console/assets/')) continue;
      // the API guides (/docs/guides/:name) are the repository's public Markdown, the same for all
      if (route.url.startsWith('/docs/')) continue;
      const kinds = paramKinds(route);
      const values = kinds.map((k) => (k ? worldIds(b, k) : undefined));
      if (values.some((v) => !v)) {
        unfillable.push(`${route.method} ${route.url} (${kinds.map((k) => k ?? '?').join(', ')})`);
        continue;
      }
      const fill = (ids: string[]) => {
        let i = 0;
        return route.url.replace(/:\w+/g, () => ids[i++]);
      };
      // operator routes answer to the admin token only: a workspace key gets 401, or 404 when off;
      // a parameter that names an entity kind (not an id) lists A's own rows: 200, nothing of B's
      const listByKind = kinds.length === 1 && kinds[0] === 'customPropertyEntity';
      // a search_ref is not a resource but a parameter of a fetch: the spec answers a tampered,
      // expired or another workspace's ref alike with a 400 naming it (nothing tells them apart)
      const badParameter = kinds[0] === 'searchRef';
      const expected = route.url.startsWith('/admin/')
        ? [401, 404]
        : listByKind
          ? [200]
          : badParameter
            ? [400]
            : [404];
      const body = writeBodyFor(route, b);
      // each of B's ids for the first parameter (a case by id and by uuid-shaped external_id)
      const rest = values.slice(1).map((v) => (v as string[])[0]);
      for (const first of values[0] as string[])
        await probe(expected, route.method, fill([first, ...rest]), body);
      if (kinds[0] === 'case') {
        // a free-text external_id: 404, or 400 where the route takes uuids only
        await probe([400, 404], route.method, fill([b.textExternalId, ...rest]), body);
      }
      // A's own first id with B's ids after it (B's relation under A's case)
      // (not for a template's version number: an ordinal, not an id; A's own template has a version 1)
      if (values.length > 1 && kinds[1] !== 'templateVersion') {
        const own = worldIds(a, kinds[0] as string) as string[];
        await probe(expected, route.method, fill([own[0], ...rest]), body);
      }
      // the ids are real: B itself reads them
      if (route.method === 'GET' && (expected[0] === 404 || listByKind)) {
        const own = await callAs(b.api, 'GET', fill(values.map((v) => (v as string[])[0])));
        if (own.status !== 200) failures.push(`B's own GET ${route.url} → ${own.status}: fixture broken`);
      }
      walked++;
    }
    assert.deepEqual(unfillable, [], 'routes with ids the walk does not know how to fill: teach it');
    assert.ok(walked >= 50, `${walked} routes walked`);

    // 2. B's ids inside A's bodies: the referenced row is not found, so nothing is created
    await probe([404], 'POST', '/v1/notes', { case_id: b.caseId, content: 'x' });
    await probe([404], 'POST', '/v1/companies', { case_id: b.caseId, name: 'x', type: 'affiliated' });
    await probe([404], 'POST', '/v1/individuals', { case_id: b.caseId, first_name: 'x', last_name: 'y' });
    await probe([404], 'POST', '/v1/checks/ekyc', { individual_id: b.ceoId });
    await probe([404], 'POST', '/v1/checks/id_document', { individual_id: b.ceoId });
    await probe([404], 'POST', '/v1/checks/online_reputation', { company_id: b.mainCompanyId });
    await probe([404], 'POST', '/v1/checks/aml', { company_id: b.mainCompanyId });
    await probe([404], 'POST', '/v1/checks/aml', { individual_id: b.ceoId });
    await probe([404], 'POST', '/v1/checks/fraud_database', { individual_id: b.ceoId });
    await probe([404], 'POST', '/v1/checks/electronic_signature', {
      individual_id: b.ceoId,
      settings: { document_template_key: 'tenant_signature' },
    });
    await probe([404], 'POST', '/v1/checks/fraud-database', { company_id: b.mainCompanyId });
    await probe([404], 'POST', '/v1/fraud-database/reports', { individual_id: b.ceoId, reason: 'x' });
    await probe([404], 'POST', '/v1/fraud-database/reports', { company_id: b.mainCompanyId, reason: 'x' });
    await probe([404], 'POST', '/v1/templates/run', { case_id: b.caseId, template_key: a.templateKey });
    // templates and upload refs are resolved in A's workspace: unknown there is a 400 naming the field
    await probe([400], 'POST', '/v1/templates/run', { case_id: a.textCaseId, template_key: b.templateKey });
    await probe([400, 404], 'POST', '/v1/templates/run', {
      case_id: a.textCaseId,
      template_id: b.templateId,
    });
    await probe([400], 'POST', '/v1/cases', { name: 'x', template_key: b.templateKey });
    // B's search_ref is unknown in A's workspace (400 naming it), and A's ref cannot import into B's case
    await probe([400], 'POST', '/v1/cases', {
      name: 'x',
      companies: [{ search_ref: b.searchRef, import_related: true }],
    });
    await probe([400], 'POST', '/v1/companies', { case_id: a.caseId, search_ref: b.searchRef });
    await probe([404], 'POST', '/v1/companies', { case_id: b.caseId, search_ref: a.searchRef });
    await probe([400], 'PATCH', `/v1/cases/${a.textCaseId}`, { template_key: b.templateKey });
    await probe([400, 404], 'PATCH', `/v1/cases/${a.textCaseId}`, { template_id: b.templateId });
    const refProbes = [
      await probe([400], 'POST', '/v1/checks/id_document', {
        individual_id: a.ceoId,
        data: { front_upload_ref: b.uploadRef },
      }),
      await probe([400], 'POST', `/v1/checks/id_document/${a.awaitingIdDocumentId}/add_files`, {
        front_upload_ref: b.uploadRef,
      }),
    ];
    for (const res of refProbes) {
      assert.match(
        JSON.stringify(res.body),
        /upload_ref/,
        `refused for the upload_ref: ${JSON.stringify(res.body)}`,
      );
    }
    // relations between A's and B's entities, in either direction
    const aCase = `/v1/cases/${a.caseId}/relations`;
    await probe([404], 'POST', aCase, { from_individual_id: b.ceoId, roles: ['shareholder'] });
    await probe([404], 'POST', aCase, { from_company_id: b.companyIds[1], roles: ['shareholder'] });
    await probe([404], 'POST', aCase, {
      from_individual_id: a.individualIds[2],
      to_company_id: b.mainCompanyId,
      roles: ['shareholder'],
    });
    await probe([404], 'PATCH', `${aCase}/${a.relationId}`, { to_company_id: b.mainCompanyId });
    await probe([404], 'POST', `/v1/cases/${a.caseId}/tags`, { tags: [b.tagId] });
    await probe([404], 'POST', '/v1/company-data/document-orders', {
      company_id: b.mainCompanyId,
      product_ref: 'sandbox_registry_extract',
    });
    await probe([404], 'DELETE', `/v1/cases/${a.caseId}/tags`, { tags: [b.tagId] });
    // client portals: B's portal from A's case is not found; B's contact is not an individual of A's case
    await probe([404], 'POST', `/v1/cases/${a.caseId}/share-client-portal-link`, {
      business_contact_id: a.ceoId,
      client_portal_id: b.clientPortalId,
    });
    await probe([400], 'POST', `/v1/cases/${a.caseId}/share-client-portal-link`, {
      business_contact_id: b.ceoId,
    });
    await probe([404], 'POST', `/v1/cases/${a.caseId}/complete-client-portal-wait-step`, {
      client_portal_id: b.clientPortalId,
    });

    // 3. list filters naming B's ids (every documented `*_id` / external_id filter) find nothing
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const filterValue: Record<string, string> = {
      case_id: b.caseId,
      company_id: b.mainCompanyId,
      individual_id: b.ceoId,
      webhook_id: b.webhookId,
      event_id: b.eventIds[0],
      external_id: b.caseExternalId,
      author_id: b.userId,
      // the audit log: B's key acts in B's log only
      actor_id: b.apiKeyId,
    };
    const unknownFilters: string[] = [];
    let filtered = 0;
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      if (!path.startsWith('/v1/') || !ops.get) continue;
      // a route with ids (a case's documents) is read with A's own ids and B's in the filter
      const fastifyPath = path.replace(/\{(\w+)\}/g, ':$1');
      const kinds = paramKinds({ method: 'GET', url: fastifyPath, params: [] });
      let k = 0;
      const own = fastifyPath.replace(/:\w+/g, () => worldIds(a, kinds[k++] ?? '')?.[0] ?? 'unknown');
      for (const param of ops.get.parameters ?? []) {
        if (param.in !== 'query' || !/(^|_)id$/.test(param.name) || param.name === 'assignee_id') continue;
        // A's audit log names the ids A's own refused requests sent (B's, from this walk): evidence of
        // A's attempts, nothing read from B; its isolation is asserted in step 5b
        if (path === '/v1/audit-log' && param.name === 'resource_id') continue;
        const value = filterValue[param.name];
        if (!value) {
          unknownFilters.push(`${path}?${param.name}`);
          continue;
        }
        // a company_id naming the subject of the answer (not a filter): B's is not found
        if (path === '/v1/company-data/available-documents') {
          await probe([404], 'GET', `${own}?${param.name}=${value}`);
          filtered++;
          continue;
        }
        const res = await probe([200], 'GET', `${own}?${param.name}=${value}`);
        const items = Array.isArray(res.body?.data) ? res.body.data : res.body;
        if (Array.isArray(items) && items.length)
          failures.push(`GET ${own}?${param.name}=B's → ${items.length} items`);
        filtered++;
      }
    }
    assert.deepEqual(unknownFilters, [], 'id filters the walk does not know how to fill');
    assert.ok(filtered >= 10, `${filtered} filters probed`);

    // 4. replaying A's webhook re-sends A's events only
    await probe([202], 'POST', `/v1/webhooks/${a.webhookId}/replay`, { since: '2020-01-01T00:00:00Z' });
    // 5. every list A can read (each GET route without ids) shows nothing of B, replayed logs included
    await quiesce(a.workspaceId);
    for (const route of routes) {
      if (route.method !== 'GET' || route.params.length || !route.url.startsWith('/v1/')) continue;
      // see 5b
      if (route.url === '/v1/audit-log') continue;
      const params: { name: string; required?: boolean; schema?: { maximum?: number } }[] =
        doc.paths[route.url]?.get?.parameters ?? [];
      const limit = params.find((p) => p.name === 'limit');
      const query = [
        ...(limit ? [`limit=${limit.schema?.maximum ?? 20}`] : []),
        // a search needs a term: the name of B's representative
        ...(params.some((p) => p.name === 'name') && route.url.includes('search')
          ? ['name=Ada%20Lovelace']
          : []),
        // available documents are those of one company: A's own
        ...(route.url === '/v1/company-data/available-documents' ? [`company_id=${a.mainCompanyId}`] : []),
        // a company-data search needs its country
        ...(params.some((p) => p.name === 'country' && p.required) ? ['country=FR'] : []),
      ];
      await probe([200], 'GET', query.length ? `${route.url}?${query.join('&')}` : route.url);
    }

    // 5b. A's audit log: only A's own actors, and B's ids only where A's own requests sent them
    const entries: any[] = [];
    for (let page = 1; ; page++) {
      const log = await callAs(a.api, 'GET', `/v1/audit-log?limit=100&page=${page}`);
      assert.equal(log.status, 200);
      entries.push(...log.body.data);
      if (log.body.data.length < 100) break;
    }
    for (const e of entries) {
      assert.notEqual(e.actor.id, b.apiKeyId, `an entry of B's key in A's log: ${JSON.stringify(e)}`);
      if (e.resource_id && bTokens.includes(e.resource_id)) {
        assert.ok(
          e.status_code >= 400,
          `A's entry on B's ${e.resource_id} is a refusal: ${JSON.stringify(e)}`,
        );
      }
    }

    // 6. external_id is unique per workspace: A may reuse B's and reads its own case by it (last:
    // from here A's own rows carry B's external_id)
    const mine = await probe([201], 'POST', '/v1/cases', {
      name: 'same external id',
      external_id: b.caseExternalId,
    });
    assert.equal((await callAs(a.api, 'GET', `/v1/cases/${b.caseExternalId}`)).body.id, mine.body.id);

    assert.deepEqual(failures, [], `cross-workspace answers:\n${failures.join('\n')}`);
    const deliveriesOfB = await sql<{ n: number }>`
      select count(*)::int as n from webhook_deliveries
      where workspace_id <> ${b.workspaceId} and event_id in (select id from events where workspace_id = ${b.workspaceId})
    `.execute(ctx.db);
    assert.equal(deliveriesOfB.rows[0].n, 0, "B's events delivered to another workspace's webhook");
    const afterWalk = await snapshotWorkspace(ctx.db, b.workspaceId);
    const changed = Object.keys({ ...before, ...afterWalk }).filter(
      (t) => JSON.stringify(afterWalk[t]) !== JSON.stringify(before[t]),
    );
    const pick = (s: typeof before) => Object.fromEntries(changed.map((t) => [t, s[t]]));
    assert.deepEqual(pick(afterWalk), pick(before), `workspace B's rows changed in ${changed.join(', ')}`);
    // B still reads its case by its external_id (A's case with the same one is A's alone)
    assert.equal((await callAs(b.api, 'GET', `/v1/cases/${b.caseExternalId}`)).body.id, b.caseId);
    assert.equal((await callAs(b.api, 'GET', `/v1/files/${b.fileId}`)).status, 200);
  });
});
