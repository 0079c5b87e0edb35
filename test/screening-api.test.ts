import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { App } from '../src/app-context.ts';
import { buildApp } from '../src/http/app.ts';
import { ScreeningService } from '../src/screening/service/screening-service.ts';
import { type Client, eventually, getHarness, newWorkspace, SHARED_DATA_DIR } from './helpers/harness.ts';

async function listsReady() {
  const { ctx } = await getHarness();
  await eventually(async () => ctx.screening?.available, 30_000);
}

describe('screening endpoints (lists loaded from VERICASE_REFERENCE_DIR)', () => {
  let api: Client;
  before(async () => {
    await listsReady();
    api = await newWorkspace('screening');
  });

  test('GET /v1/screening/lists shows the loaded list versions', async () => {
    const res = await api.get('/v1/screening/lists');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'ready');
    assert.equal(res.body.message, null);
    assert.match(res.body.versions_key, /^sha256:/);
    const bySource = Object.fromEntries(res.body.data.map((l: { source: string }) => [l.source, l]));
    assert.equal(bySource.ofac_sdn.entities, 7379);
    assert.equal(bySource.un_sc.entities, 1003);
    assert.match(bySource.un_sc.version, /^2026-02-27\/sha256:/);
    assert.equal(bySource.ofac_sdn.malformed, 0);
    assert.ok(Date.parse(bySource.ofac_sdn.loaded_at));
    assert.equal(bySource.ofac_sdn.origin, 'sanctions/ofac-sdn-2019');
  });

  test('listed OFAC and UN names are found, best first, with an explanation', async () => {
    const ofac = await api.get(
      '/v1/screening/search?name=Elvis%20Angus%20Logan%20Morey&type=person&birth_date=1963',
    );
    assert.equal(ofac.status, 200, JSON.stringify(ofac.body));
    const top = ofac.body.data[0];
    assert.equal(top.id, 'ofac_sdn:10278');
    assert.equal(top.name, 'LOGAN MOREY, Elvis Angus');
    assert.equal(top.kind, 'person');
    assert.deepEqual(top.lists, ['ofac_sdn']);
    assert.deepEqual(top.list_types, ['sanction']);
    assert.deepEqual(top.programs, ['SDNT']);
    assert.ok(top.birth_dates.includes('1963-07-28'));
    assert.ok(top.score >= 0.95, String(top.score));
    assert.ok(top.explanation.summary);
    assert.ok(Array.isArray(top.aliases));

    // a typo and reversed order still match the UN entry
    const un = await api.get('/v1/screening/search?name=Badeg%20Eric');
    assert.equal(un.status, 200);
    // listed on both: OFAC (2019) and the UN list
    const ids = un.body.data.slice(0, 3).map((d: { id: string }) => d.id);
    assert.ok(ids.includes('un_sc:CDi.001'), JSON.stringify(ids));
    assert.ok(ids.includes('ofac_sdn:15718'), JSON.stringify(ids));
    assert.deepEqual(un.body.data.find((d: { id: string }) => d.id === 'un_sc:CDi.001').lists, ['un_sc']);

    const company = await api.get(
      '/v1/screening/search?name=Gaddafi%20International%20Charity%20and%20Development%20Foundation&type=company',
    );
    assert.equal(company.body.data[0]?.id, 'ofac_sdn:12685');
    assert.equal(company.body.data[0].kind, 'organisation');
    // sorted best first
    const scores = ofac.body.data.map((d: { score: number }) => d.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
  });

  test('ordinary names are not found; type and min_score filter', async () => {
    for (const name of ['Marie Curie', 'Ada Lovelace', 'Grace Hopper', 'Acme Widgets SAS']) {
      const res = await api.get(`/v1/screening/search?name=${encodeURIComponent(name)}`);
      assert.equal(res.status, 200);
      assert.deepEqual(res.body.data, [], name);
    }
    const asCompany = await api.get('/v1/screening/search?name=Elvis%20Angus%20Logan%20Morey&type=company');
    assert.deepEqual(asCompany.body.data, []);
    const loose = await api.get('/v1/screening/search?name=Daniel%20Moreno&min_score=0.5&limit=3');
    assert.equal(loose.status, 200);
    assert.ok(loose.body.data.length <= 3 && loose.body.data.length > 0);
    assert.ok(loose.body.data.every((d: { score: number }) => d.score >= 0.5));
  });

  test('400 on a missing name and on bad type, limit, min_score, birth_date', async () => {
    const missing = await api.get('/v1/screening/search?type=person');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'BAD_REQUEST');
    assert.equal(missing.body.details[0].path, 'name');
    const blank = await api.get('/v1/screening/search?name=%20%20');
    assert.equal(blank.status, 400);
    assert.equal(blank.body.details[0].path, 'name');
    for (const [qs, field] of [
      ['type=vessel', 'type'],
      ['limit=0', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1000', 'limit'],
      ['min_score=2', 'min_score'],
      ['min_score=x', 'min_score'],
      ['birth_date=12-05-1960', 'birth_date'],
      ['colour=blue', 'colour'],
    ]) {
      const res = await api.get(`/v1/screening/search?name=Daniel%20Moreno&${qs}`);
      assert.equal(res.status, 400, qs);
      assert.ok(
        res.body.details.some((d: { path: string }) => d.path === field),
        `${qs}: ${JSON.stringify(res.body)}`,
      );
    }
  });

  test('the screening endpoints need an API key', async () => {
    const { app } = await getHarness();
    const res = await app.inject({ method: 'GET', url: '/v1/screening/search?name=x' });
    assert.equal(res.statusCode, 401);
  });
});

describe('screening without lists, and reload without restart', () => {
  let app: App;
  let service: ScreeningService;
  let refDir: string;
  let api: Client;
  const ADMIN = 'test-admin-token';

  before(async () => {
    const h = await getHarness();
    refDir = await mkdtemp(join(tmpdir(), 'vericase-ref-empty-'));
    service = new ScreeningService({ resolveDir: () => refDir });
    await service.load();
    // the same database and keys, with a config pointing at an empty reference directory
    app = await buildApp({
      ...h.ctx,
      config: { ...h.ctx.config, referenceDir: refDir, adminToken: ADMIN },
      screening: service,
    });
    await app.ready();
    const ws = await newWorkspace('no-lists');
    const { clientFor } = await import('./helpers/harness.ts');
    api = clientFor(app, ws.key, ws.workspaceId);
  });
  after(async () => {
    service.stop();
    await app.close();
  });

  test('search answers 503 saying how to load lists; lists says empty', async () => {
    assert.equal(service.available, false);
    const res = await api.get('/v1/screening/search?name=Daniel%20Moreno');
    assert.equal(res.status, 503);
    assert.equal(res.body.code, 'SERVICE_UNAVAILABLE');
    assert.equal(res.body.status_code, 503);
    assert.match(res.body.message, /VERICASE_REFERENCE_DIR/);
    assert.match(res.body.message, /npx vericase data pull/);
    const lists = await api.get('/v1/screening/lists');
    assert.equal(lists.status, 200);
    assert.equal(lists.body.status, 'empty');
    assert.deepEqual(lists.body.data, []);
    assert.match(lists.body.message, /npx vericase data pull/);
  });

  test('POST /admin/screening/reload needs the admin token, loads a new version, 503 while empty', async () => {
    const noToken = await app.inject({ method: 'POST', url: '/admin/screening/reload' });
    assert.equal(noToken.statusCode, 401);
    const reload = () =>
      app.inject({
        method: 'POST',
        url: '/admin/screening/reload',
        headers: { authorization: `Bearer ${ADMIN}` },
      });
    const empty = await reload();
    assert.equal(empty.statusCode, 503);
    assert.match(empty.json().message, /data pull/);

    await mkdir(join(refDir, 'sanctions', 'un'), { recursive: true });
    await cp(
      join(SHARED_DATA_DIR, 'sanctions', 'un', 'consolidated.xml'),
      join(refDir, 'sanctions', 'un', 'consolidated.xml'),
    );
    const loaded = await reload();
    assert.equal(loaded.statusCode, 200, loaded.body);
    const body = loaded.json();
    assert.equal(body.changed, true);
    assert.deepEqual(
      body.data.map((d: { source: string; entities: number }) => [d.source, d.entities]),
      [['un_sc', 1003]],
    );
    const found = await api.get('/v1/screening/search?name=Eric%20Badege');
    assert.equal(found.status, 200);
    assert.equal(found.body.data[0].id, 'un_sc:CDi.001');

    const again = await reload();
    assert.equal(again.json().changed, false);
  });

  test('the periodic directory check reloads when a file changes (content hash)', async () => {
    assert.equal(await service.checkForChanges(), null);
    const before = service.versionsKey;
    await mkdir(join(refDir, 'sanctions', 'ofac-sdn'), { recursive: true });
    for (const f of ['sdn.csv', 'add.csv', 'alt.csv', 'sdn_comments.csv']) {
      await cp(
        join(SHARED_DATA_DIR, 'sanctions', 'ofac-sample', f),
        join(refDir, 'sanctions', 'ofac-sdn', f),
      );
    }
    const report = await service.checkForChanges();
    assert.ok(report?.changed);
    assert.notEqual(service.versionsKey, before);
    assert.deepEqual(service.versions.map((v) => v.source).sort(), ['ofac_sdn', 'un_sc']);
    // a touched file with the same bytes is not a new version
    await writeFile(
      join(refDir, 'sanctions', 'ofac-sdn', 'sdn.csv'),
      await (await import('node:fs/promises')).readFile(
        join(SHARED_DATA_DIR, 'sanctions', 'ofac-sample', 'sdn.csv'),
      ),
    );
    assert.equal(await service.checkForChanges(), null);
  });
});
