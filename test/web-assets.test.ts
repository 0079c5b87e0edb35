/**
 * The portal page and its assets as the service serves them (src/web-assets): security headers of
 * the page, immutable hashed assets, no path escaping the build folder, and a clear 503 when the
 * build is missing (the service still starts). The page's behaviour is in test/browser/.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import type { App } from '../src/app-context.ts';
import { AssetStore, WEB_DIST } from '../src/web-assets/assets.ts';
import { registerWebAssetRoutes } from '../src/web-assets/routes.ts';
import { LANGUAGES, MESSAGES } from '../web/portal/messages.ts';
import { getHarness } from './helpers/harness.ts';

describe('web assets', () => {
  test('the build exists after npm install', () => {
    assert.ok(
      fs.existsSync(path.join(WEB_DIST, 'portal/index.html')),
      'web/dist/portal/index.html is missing: `npm install` (or `npm run build:web`) builds it',
    );
  });

  test('GET /portal/ serves the page with strict headers, never cached', async () => {
    const { app } = await getHarness();
    for (const url of ['/portal/', '/portal']) {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 200, url);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.match(String(res.headers['permissions-policy']), /camera=\(self\)/);
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      assert.match(res.body, /<div id="root"><\/div>/);
      // no inline script: everything the page runs is a hashed asset under /portal/assets/
      assert.doesNotMatch(res.body, /<script(?![^>]*\bsrc=)[^>]*>/);
      assert.match(res.body, /src="\/portal\/assets\/[\w.-]+\.js"/);
    }
  });

  test('GET /portal/ speaks the Accept-Language: lang, title and noscript, and says it varies on it', async () => {
    const { app } = await getHarness();
    const page = async (acceptLanguage?: string, gzip = false) => {
      const headers: Record<string, string> = {};
      if (acceptLanguage !== undefined) headers['accept-language'] = acceptLanguage;
      if (gzip) headers['accept-encoding'] = 'gzip';
      const res = await app.inject({ method: 'GET', url: '/portal/', headers });
      assert.equal(res.statusCode, 200);
      const body =
        res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.rawPayload).toString() : res.body;
      const vary = String(res.headers.vary)
        .toLowerCase()
        .split(/\s*,\s*/);
      assert.ok(vary.includes('accept-language'), `vary: ${res.headers.vary}`);
      return {
        lang: body.match(/<html lang="([^"]*)">/)?.[1],
        title: body.match(/<title>([^<]*)<\/title>/)?.[1],
        noscript: body.match(/<noscript>([^<]*)<\/noscript>/)?.[1],
        body,
        vary,
      };
    };
    const fr = await page('fr');
    assert.equal(fr.lang, 'fr');
    assert.equal(fr.title, 'Portail client');
    assert.match(String(fr.noscript), /^Cette page a besoin de JavaScript/);
    // the noscript text comes before anything the page would run or fill
    assert.ok(fr.body.indexOf('<noscript>') < fr.body.indexOf('<div id="root">'));
    // the best weighted language the page has; a region is its language
    assert.equal((await page('sv-SE, de-CH;q=0.8, fr;q=0.9')).lang, 'fr');
    const de = await page('de-AT;q=0.9, sv;q=1');
    assert.deepEqual([de.lang, de.title], ['de', 'Kundenportal']);
    assert.match(String(de.noscript), /JavaScript/);
    assert.equal((await page('ja-JP')).title, 'お客様ポータル');
    // asked with gzip: the same page (a page this small is sent as is; gzipped, it varies on both)
    const gz = await page('fr-FR', true);
    assert.deepEqual([gz.lang, gz.title], ['fr', 'Portail client']);
    // a language the page lacks, a refused one, none, or nonsense: English
    for (const header of ['sv', 'fr;q=0', undefined, '*', ';;q=x,,']) {
      const en = await page(header);
      assert.deepEqual([en.lang, en.title], ['en', 'Client portal'], String(header));
      assert.match(String(en.noscript), /^This page needs JavaScript/);
    }
  });

  test('the served title is the portal name the page itself shows, in every language', async () => {
    const { app } = await getHarness();
    for (const lang of LANGUAGES) {
      const res = await app.inject({ method: 'GET', url: '/portal/', headers: { 'accept-language': lang } });
      assert.match(res.body, new RegExp(`<html lang="${lang}">`));
      assert.ok(res.body.includes(`<title>${MESSAGES[lang].defaultPortalName}</title>`), lang);
    }
  });

  test('hashed assets are served immutable, gzip when asked, and only from the build folder', async () => {
    const { app } = await getHarness();
    const page = await app.inject({ method: 'GET', url: '/portal/' });
    const urls = [...page.body.matchAll(/(?:src|href)="(\/portal\/assets\/[^"]+)"/g)].map((m) => m[1]);
    assert.ok(urls.some((u) => u.endsWith('.js')) && urls.some((u) => u.endsWith('.css')), urls.join());
    for (const url of urls) {
      const plain = await app.inject({ method: 'GET', url });
      assert.equal(plain.statusCode, 200, url);
      assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(plain.headers['x-content-type-options'], 'nosniff');
      assert.match(
        String(plain.headers['content-type']),
        url.endsWith('.js') ? /^text\/javascript/ : /^text\/css/,
      );
      const onDisk = fs.readFileSync(path.join(WEB_DIST, 'assets', path.basename(url)));
      assert.deepEqual(plain.rawPayload, onDisk);
      const gz = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, br' } });
      assert.equal(gz.headers['content-encoding'], 'gzip');
      assert.deepEqual(gunzipSync(gz.rawPayload), onDisk);
      assert.ok(gz.rawPayload.length < onDisk.length);
    }
    for (const url of [
      '/portal/assets/nothing-here.js',
      '/portal/assets/..%2Fportal%2Findex.html',
      '/portal/assets/%2E%2E%2F%2E%2E%2Fpackage.json',
      '/portal/assets/.hidden.js',
      '/portal/assets/x.exe',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      assert.equal(res.statusCode, 404, url);
      assert.equal(res.json().code, 'NOT_FOUND');
    }
  });

  describe('without a build', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'vericase-no-web-'));
    const app = Fastify() as unknown as App;
    after(async () => {
      await app.close();
      fs.rmSync(empty, { recursive: true, force: true });
    });

    test('/portal/ answers a 503 saying the assets are not built', async () => {
      registerWebAssetRoutes(app, new AssetStore(empty));
      await app.ready();
      const res = await app.inject({ method: 'GET', url: '/portal/' });
      assert.equal(res.statusCode, 503);
      assert.match(String(res.headers['content-type']), /^text\/plain/);
      assert.match(res.body, /web assets are not built/);
      assert.match(res.body, /npm install/);
      assert.equal((await app.inject({ method: 'GET', url: '/portal/assets/portal-x.js' })).statusCode, 404);
    });

    test('a build made while the service runs is picked up', async () => {
      fs.mkdirSync(path.join(empty, 'portal'));
      fs.writeFileSync(path.join(empty, 'portal/index.html'), '<!doctype html><title>x</title>');
      const res = await app.inject({ method: 'GET', url: '/portal/' });
      assert.equal(res.statusCode, 200);
      // served as built, but for the title, in the visitor's language (English without a header)
      assert.equal(res.body, '<!doctype html><title>Client portal</title>');
    });
  });
});
