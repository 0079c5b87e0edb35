import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { pdfInfo, pdfText, publishedTemplate, renderPdf } from './helpers/document-templates.ts';
import { getHarness, newWorkspace, sampleCaseBody } from './helpers/harness.ts';

/**
 * Document templates through the API: keys, kinds and versions (drafts compiled at once, the version
 * published last in use), and rendering for a case with the system's Chromium, read back with
 * pdftotext. Also the sandbox (no request leaves the page, no script runs), the browser missing (502)
 * and the browser dying between two renders (started again).
 */

const CONTRACT = `<html><head><style>body{font-family:sans-serif}</style></head><body>
<h1>Service agreement</h1>
<p>Case: {{case.name}}</p>
<p>Company: {{company.name}}, registered under {{company.registration_number}} ({{company.country}})</p>
<p>Tax id: {{company.tax_identification_number}}</p>
<p>Signer: {{signer.full_name}} &lt;{{signer.email}}&gt;</p>
<p>Made on {{formatDate date "long"}} / le {{formatDate date "long" "fr"}}; {{uppercase company.name}}</p>
</body></html>`;

async function newCase(api: Awaited<ReturnType<typeof newWorkspace>>, body = sampleCaseBody()) {
  const res = await api.post('/v1/cases', body);
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

describe('document templates', () => {
  test('create, list and read templates; keys and kinds checked; another workspace sees none', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const created = await api.post('/v1/document-templates', {
      key: 'service_agreement',
      name: 'Service agreement',
      kind: 'electronic_signature',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.key, 'service_agreement');
    assert.equal(created.body.kind, 'electronic_signature');
    assert.equal(created.body.published_version, null);
    assert.equal(created.body.latest_version, null);
    assert.deepEqual(created.body.versions, []);
    assert.match(created.body.id, /^[0-9a-f-]{36}$/);
    assert.equal(
      (await api.post('/v1/document-templates', { key: 'kyc_report', name: 'KYC report', kind: 'report' }))
        .status,
      201,
    );

    // the same key in another workspace is another template
    assert.equal(
      (
        await other.post('/v1/document-templates', {
          key: 'service_agreement',
          name: 'Theirs',
          kind: 'report',
        })
      ).status,
      201,
    );

    const dup = await api.post('/v1/document-templates', {
      key: 'service_agreement',
      name: 'x',
      kind: 'report',
    });
    assert.equal(dup.status, 409);
    assert.equal(dup.body.details[0].path, 'key');

    for (const [body, field] of [
      [{ key: 'Service', name: 'x', kind: 'report' }, 'key'],
      [{ key: 'a-b', name: 'x', kind: 'report' }, 'key'],
      [{ key: 'a'.repeat(65), name: 'x', kind: 'report' }, 'key'],
      [{ key: '', name: 'x', kind: 'report' }, 'key'],
      [{ key: 'ok_key', name: 'x', kind: 'contract' }, 'kind'],
      [{ key: 'ok_key', name: '', kind: 'report' }, 'name'],
      [{ key: 'ok_key', kind: 'report' }, 'name'],
      [{ key: 'ok_key', name: 'x', kind: 'report', id: '00000000-0000-4000-8000-000000000000' }, 'id'],
      [{ key: 'ok_key', name: 'x', kind: 'report', content: '<p/>' }, 'content'],
    ] as const) {
      const res = await api.post('/v1/document-templates', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.ok(
        res.body.details.some((d: any) => d.path === field),
        `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`,
      );
    }

    // a union of literals says which values it takes, once
    const badKind = await api.post('/v1/document-templates', { key: 'ok_key', name: 'x', kind: 'contract' });
    assert.equal(badKind.body.message, 'kind must be one of: electronic_signature, report');

    const list = await api.get('/v1/document-templates?sort=key');
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(
      list.body.data.map((t: any) => t.key),
      ['kyc_report', 'service_agreement'],
    );
    assert.deepEqual(list.body.pagination, { page: 1, limit: 20, count: 2 });
    const signatures = await api.get('/v1/document-templates?kind=electronic_signature');
    assert.deepEqual(
      signatures.body.data.map((t: any) => t.key),
      ['service_agreement'],
    );
    const page2 = await api.get('/v1/document-templates?sort=key&limit=1&page=2');
    assert.deepEqual(
      page2.body.data.map((t: any) => t.key),
      ['service_agreement'],
    );
    assert.equal((await api.get('/v1/document-templates?colour=red')).status, 400);
    assert.equal((await api.get('/v1/document-templates?kind=contract')).status, 400);

    const one = await api.get('/v1/document-templates/service_agreement');
    assert.equal(one.status, 200);
    assert.equal(one.body.name, 'Service agreement');
    assert.equal((await api.get('/v1/document-templates/nope')).status, 404);
    // the other workspace's template of the same key is not ours, and theirs only
    assert.equal((await other.get('/v1/document-templates/service_agreement')).body.name, 'Theirs');
    assert.equal((await other.get('/v1/document-templates/kyc_report')).status, 404);
    assert.equal((await other.get('/v1/document-templates')).body.pagination.count, 1);

    const { ctx } = await getHarness();
    const rows = await ctx.db
      .selectFrom('document_templates')
      .select(['key', 'kind', 'name'])
      .where('workspace_id', '=', api.workspaceId)
      .orderBy('key')
      .execute();
    assert.deepEqual(rows, [
      { key: 'kyc_report', kind: 'report', name: 'KYC report' },
      { key: 'service_agreement', kind: 'electronic_signature', name: 'Service agreement' },
    ]);
  });

  test('versions: drafts numbered in order, compiled at once, the version published last in use', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    await api.post('/v1/document-templates', { key: 'nda', name: 'NDA', kind: 'electronic_signature' });

    const v1 = await api.post('/v1/document-templates/nda/versions', { content: '<p>v1 {{case.name}}</p>' });
    assert.equal(v1.status, 201, JSON.stringify(v1.body));
    assert.deepEqual(
      { ...v1.body, created_at: undefined },
      {
        template_key: 'nda',
        number: 1,
        status: 'draft',
        published_at: null,
        created_at: undefined,
        content: '<p>v1 {{case.name}}</p>',
      },
    );
    const v2 = await api.post('/v1/document-templates/nda/versions', { content: '<p>v2 {{case.name}}</p>' });
    assert.equal(v2.body.number, 2);

    // a template that does not compile is refused now, naming content, and nothing is stored
    for (const content of [
      '<p>{{#if case.name}}unclosed</p>',
      '<p>{{case.name</p>',
      '{{/each}}',
      // valid syntax, but no partial exists: every render (in front of the signer) would fail
      '<p>{{> evil}}</p>',
      '<div>{{#each companies}}{{> row}}{{/each}}</div>',
      // and no such helper
      '<p>{{shout case.name}}</p>',
      '<p>{{#each (pick companies 2)}}{{name}}{{/each}}</p>',
      // Handlebars' own helpers without their argument(s): each threw on every render (walk 54)
      '<p>{{#with}}{{name}}{{/with}}</p>',
      '<p>{{#if}}yes{{/if}}</p>',
      '<p>{{#unless}}no{{/unless}}</p>',
      '<p>{{#each}}{{name}}{{/each}}</p>',
      '<p>{{lookup company}}</p>',
      '<p>{{#if case.name}}a{{else if}}b{{/if}}</p>',
      '<p>{{#if (lookup case)}}a{{/if}}</p>',
      '<p>{{#if case.name company.name}}a{{/if}}</p>',
      '<p>{{helperMissing}}</p>',
    ]) {
      const bad = await api.post('/v1/document-templates/nda/versions', { content });
      assert.equal(bad.status, 400, content);
      assert.equal(bad.body.details[0].path, 'content');
      assert.match(bad.body.message, /not a valid template/);
    }
    const noArgument = await api.post('/v1/document-templates/nda/versions', {
      content: '<p>ok</p>\n<p>{{#each}}{{name}}{{/each}}</p>',
    });
    assert.match(
      noArgument.body.message,
      /each needs exactly one argument \(line 2: 0 given\), e\.g\. \{\{#each companies\}\}/,
    );
    // the built-ins with their arguments are fine (in a template of their own: nda's numbering goes on)
    const builtins = await api.post('/v1/document-templates', {
      key: 'builtins',
      name: 'Built-in helpers',
      kind: 'electronic_signature',
    });
    assert.equal(builtins.status, 201, JSON.stringify(builtins.body));
    const fine = await api.post('/v1/document-templates/builtins/versions', {
      content:
        '{{#each companies}}{{name}}{{/each}}{{#if case.name}}a{{else if company.name}}b{{else}}c{{/if}}' +
        '{{#unless case.name}}d{{/unless}}{{#with company as |c|}}{{c.name}}{{/with}}{{lookup company "name"}}',
    });
    assert.equal(fine.status, 201, JSON.stringify(fine.body));
    assert.equal(fine.body.number, 1);
    const empty = await api.post('/v1/document-templates/nda/versions', { content: '' });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.details[0].path, 'content');
    const big = await api.post('/v1/document-templates/nda/versions', {
      content: `<p>${'é'.repeat(600_000)}</p>`,
    });
    assert.equal(big.status, 400);
    assert.equal(big.body.details[0].path, 'content');
    assert.match(big.body.message, /1 MB/);
    const extra = await api.post('/v1/document-templates/nda/versions', {
      content: '<p/>',
      status: 'published',
    });
    assert.equal(extra.status, 400);
    assert.equal(extra.body.details[0].path, 'status');
    assert.equal((await api.post('/v1/document-templates/nope/versions', { content: '<p/>' })).status, 404);
    assert.equal((await other.post('/v1/document-templates/nda/versions', { content: '<p/>' })).status, 404);

    let t = (await api.get('/v1/document-templates/nda')).body;
    assert.equal(t.latest_version, 2);
    assert.equal(t.published_version, null);
    assert.deepEqual(
      t.versions.map((v: any) => [v.number, v.status]),
      [
        [1, 'draft'],
        [2, 'draft'],
      ],
    );
    assert.equal(t.versions[0].content, undefined);
    assert.equal(
      (await api.get('/v1/document-templates/nda/versions/2')).body.content,
      '<p>v2 {{case.name}}</p>',
    );
    assert.equal((await api.get('/v1/document-templates/nda/versions/3')).status, 404);
    assert.equal((await api.get('/v1/document-templates/nda/versions/zero')).status, 400);

    // publishing: a missing version is 404, another workspace's template 404
    const missing = await api.post('/v1/document-templates/nda/versions/9/publish');
    assert.equal(missing.status, 404);
    assert.match(missing.body.message, /Version 9/);
    assert.equal((await api.post('/v1/document-templates/nda/versions/0/publish')).status, 400);
    assert.equal((await other.post('/v1/document-templates/nda/versions/1/publish')).status, 404);

    // a version saved before its content was checked this far (written here straight to the table)
    // cannot be published: it would fail every signer
    {
      const { ctx } = await getHarness();
      const saved = await api.post('/v1/document-templates/builtins/versions', {
        content: '<p>v1 {{case.name}}</p>',
      });
      assert.equal(saved.status, 201);
      await ctx.db
        .updateTable('document_template_versions')
        .set({ content: '<p>{{#if}}yes{{/if}}</p>' })
        .where('content', '=', '<p>v1 {{case.name}}</p>')
        .where('template_id', 'in', (eb) =>
          eb
            .selectFrom('document_templates')
            .select('id')
            .where('key', '=', 'builtins')
            .where('workspace_id', '=', api.workspaceId),
        )
        .execute();
      const refused = await api.post(`/v1/document-templates/builtins/versions/${saved.body.number}/publish`);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.details[0].path, 'content');
      assert.match(refused.body.message, /Version 2 cannot be published: .*if needs exactly one argument/);
      const kept = (await api.get('/v1/document-templates/builtins')).body;
      assert.equal(kept.published_version, null);
    }

    const p1 = await api.post('/v1/document-templates/nda/versions/1/publish');
    assert.equal(p1.status, 200, JSON.stringify(p1.body));
    assert.equal(p1.body.status, 'published');
    assert.ok(p1.body.published_at);
    // publishing the version in use again changes nothing
    const again = await api.post('/v1/document-templates/nda/versions/1/publish');
    assert.equal(again.body.published_at, p1.body.published_at);
    t = (await api.get('/v1/document-templates/nda')).body;
    assert.equal(t.published_version, 1);

    const kase = await newCase(api);
    const text = async () => pdfText((await renderPdf(api, kase.id, 'nda')).bytes);
    assert.match(await text(), /v1 Acme onboarding/);
    await api.post('/v1/document-templates/nda/versions/2/publish');
    assert.equal((await api.get('/v1/document-templates/nda')).body.published_version, 2);
    assert.match(await text(), /v2 Acme onboarding/);
    // publishing v1 again rolls back to it
    await api.post('/v1/document-templates/nda/versions/1/publish');
    assert.equal((await api.get('/v1/document-templates/nda')).body.published_version, 1);
    assert.match(await text(), /v1 Acme onboarding/);
    // a new draft is not used until published
    await api.post('/v1/document-templates/nda/versions', { content: '<p>v3 draft</p>' });
    assert.match(await text(), /v1 Acme onboarding/);

    const { ctx } = await getHarness();
    const stored = await ctx.db
      .selectFrom('document_template_versions as v')
      .innerJoin('document_templates as t', 't.id', 'v.template_id')
      .select(['v.number', 'v.status'])
      .where('t.workspace_id', '=', api.workspaceId)
      .where('t.key', '=', 'nda')
      .orderBy('v.number')
      .execute();
    assert.deepEqual(stored, [
      { number: 1, status: 'published' },
      { number: 2, status: 'published' },
      { number: 3, status: 'draft' },
    ]);
  });

  test("helpers: the formatting ones and Handlebars' block helpers only; log and the internal ones are refused", async () => {
    const api = await newWorkspace();
    await api.post('/v1/document-templates', { key: 'helpers', name: 'Helpers', kind: 'report' });
    // `log` would print case data to the service's standard output, outside its structured log;
    // helperMissing/blockHelperMissing are Handlebars' internals, not helpers to call
    for (const content of [
      '<p>{{log case.name}}</p>',
      '<p>{{log "x" level="error"}}</p>',
      '<p>{{helperMissing case.name}}</p>',
      '<p>{{#blockHelperMissing case.name}}x{{/blockHelperMissing}}</p>',
    ]) {
      const bad = await api.post('/v1/document-templates/helpers/versions', { content });
      assert.equal(bad.status, 400, `${content}: ${JSON.stringify(bad.body)}`);
      assert.equal(bad.body.details[0].path, 'content');
      assert.match(
        bad.body.message,
        /\(available: each, formatDate, if, join, lookup, lowercase, unless, uppercase, with\)$/,
      );
    }
    const ok = await api.post('/v1/document-templates/helpers/versions', {
      content:
        '<p>{{#unless case.tags}}none{{/unless}} {{#with company}}{{name}}{{/with}} {{lookup company "name"}}</p>',
    });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
  });

  test('render: the case, its main company, the signer and the date; missing placeholders listed', async () => {
    const api = await newWorkspace();
    const body = sampleCaseBody();
    body.name = 'Onboarding <b>"Acme"</b> & co';
    const kase = await newCase(api, body);
    const ada = kase.individuals.find((i: any) => i.first_name === 'Ada');
    await publishedTemplate(api, 'agreement', CONTRACT);

    const res = await renderPdf(api, kase.id, 'agreement', { individual_id: ada.id });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.equal(res.headers['content-type'], 'application/pdf');
    assert.equal(res.bytes.subarray(0, 5).toString(), '%PDF-');
    assert.equal(res.headers['x-document-template-version'], '1');
    assert.equal(res.headers['x-document-pages'], '1');
    assert.equal(res.headers['x-missing-placeholders'], 'company.tax_identification_number');
    assert.equal(res.headers['x-missing-placeholders-count'], '1');
    // the document properties name the template and this service, not about:blank and HeadlessChrome
    const info = pdfInfo(res.bytes);
    assert.equal(info.Title, 'Template agreement');
    assert.equal(info.Creator, 'vericase');
    assert.equal(info.Producer, 'vericase');
    assert.equal(info.Pages, '1');
    // a <title> of the template's own is its title
    await publishedTemplate(api, 'titled', '<html><head><title>Our NDA</title></head><body>x</body></html>');
    assert.equal(pdfInfo((await renderPdf(api, kase.id, 'titled')).bytes).Title, 'Our NDA');
    // an Idempotency-Key on a render (no JSON answer to keep) renders again: a retry is never empty
    const { app } = await getHarness();
    const keyed = () =>
      app.inject({
        method: 'POST',
        url: `/v1/cases/${kase.id}/document-templates/titled/render`,
        headers: { 'x-service-api-key': api.key, 'idempotency-key': `render-${kase.id}` },
      });
    const firstKeyed = await keyed();
    const retried = await keyed();
    assert.equal(retried.statusCode, 200);
    assert.equal(retried.rawPayload.subarray(0, 5).toString(), '%PDF-');
    assert.equal(retried.rawPayload.length, firstKeyed.rawPayload.length);
    const text = pdfText(res.bytes);
    // the case's data is escaped: the name prints as typed, its markup is not markup
    assert.match(text, /Case: Onboarding <b>"Acme"<\/b> & co/);
    assert.match(text, /Company: Acme SAS, registered under 552100554 \(FR\)/);
    assert.match(text, /Signer: Ada Lovelace <ada@example\.com>/);
    const today = new Date();
    const long = today.toLocaleDateString('en-GB', {
      timeZone: 'UTC',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
    const longFr = today.toLocaleDateString('fr-FR', {
      timeZone: 'UTC',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
    assert.ok(text.includes(`Made on ${long} / le ${longFr}; ACME SAS`), text);
    assert.match(text, /1 ?\/ ?1/, 'page numbers in the footer');

    // without a signer the signer's placeholders render empty and are listed
    const noSigner = await renderPdf(api, kase.id, 'agreement');
    assert.equal(noSigner.status, 200);
    assert.equal(noSigner.headers['x-missing-placeholders'], 'company.tax_identification_number, signer');
    assert.match(pdfText(noSigner.bytes), /Signer: <>/);

    // a case without a main company: every company placeholder is missing
    const bare = await newCase(api, { name: 'Empty case' } as any);
    const noCompany = await renderPdf(api, bare.id, 'agreement');
    assert.equal(noCompany.status, 200);
    assert.equal(noCompany.headers['x-missing-placeholders'], 'company, signer');

    // a report template renders the same way
    await publishedTemplate(api, 'summary', '<h2>{{case.name}} {{case.nope}}</h2>', 'report');
    const summary = await renderPdf(api, kase.id, 'summary');
    assert.equal(summary.status, 200);
    assert.equal(summary.headers['x-missing-placeholders'], 'case.nope');

    // an empty list has no value either: read through join (or each, or if) it is listed
    await publishedTemplate(api, 'tags', '<p>Tags: {{join case.tags ", "}}.</p>', 'report');
    const noTags = await renderPdf(api, bare.id, 'tags');
    assert.equal(noTags.status, 200);
    assert.equal(noTags.headers['x-missing-placeholders'], 'case.tags');
    assert.match(pdfText(noTags.bytes), /Tags: \./);
    const tagged = await newCase(api, { name: 'Tagged', tags: ['vip', 'fr'] } as any);
    const withTags = await renderPdf(api, tagged.id, 'tags');
    assert.equal(withTags.headers['x-missing-placeholders'], '');
    assert.match(pdfText(withTags.bytes), /Tags: (vip, fr|fr, vip)\./);
  });

  test('formatDate speaks the eleven portal languages (Intl), en and fr unchanged', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    await publishedTemplate(
      api,
      'dates',
      '<p>DE[{{formatDate date "long" "de"}}] PL[{{formatDate date "long" "pl"}}] JA[{{formatDate date "short" "ja"}}] NL[{{formatDate date "short" "nl"}}]</p>',
    );
    const res = await renderPdf(api, kase.id, 'dates');
    assert.equal(res.status, 200, JSON.stringify(res.json));
    const text = pdfText(res.bytes).replace(/\s+/g, ' ');
    const today = new Date();
    const fmt = (loc: string, style: 'long' | 'short') =>
      today.toLocaleDateString(
        loc,
        style === 'long'
          ? { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }
          : { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' },
      );
    // before: every language but fr fell back to English (23 November 2026)
    assert.ok(text.includes(`DE[${fmt('de-DE', 'long')}]`), text);
    assert.ok(text.includes(`PL[${fmt('pl-PL', 'long')}]`), text);
    assert.ok(text.includes(`JA[${fmt('ja-JP', 'short')}]`), text);
    assert.ok(text.includes(`NL[${fmt('nl-NL', 'short')}]`), text);
    assert.ok(!text.includes(fmt('en-GB', 'long')), text);
    // an impossible calendar day prints nothing, as any unreadable date: V8 rolled it over to a
    // real date (2026-02-30 printed 2026-03-02)
    await publishedTemplate(
      api,
      'bad_dates',
      '<p>A[{{formatDate "2026-02-30"}}] B[{{formatDate "2028-02-29"}}] C[{{formatDate "2026-04-31T10:00:00Z" "long"}}] D[{{formatDate "2026-13-01"}}]</p>',
    );
    const bad = await renderPdf(api, kase.id, 'bad_dates');
    assert.equal(bad.status, 200, JSON.stringify(bad.json));
    assert.match(pdfText(bad.bytes).replace(/\s+/g, ' '), /A\[\] B\[2028-02-29\] C\[\] D\[\]/);
  });

  test('a template that would print for minutes is a 400 at the deadline, and renders go on after it', async () => {
    const { ctx } = await getHarness();
    const api = await newWorkspace();
    const kase = await newCase(api);
    await publishedTemplate(api, 'agreement', CONTRACT);
    // 5,000 page breaks: accepted by the validator, minutes of Chromium printing
    await publishedTemplate(api, 'endless', '<div style="page-break-after:always">x</div>'.repeat(5000));
    const limit = ctx.config.pdfRenderTimeoutMs;
    ctx.config.pdfRenderTimeoutMs = 1000;
    try {
      // more of them than render slots (4): each one frees its slot at the deadline
      const stuck = await Promise.all(Array.from({ length: 5 }, () => renderPdf(api, kase.id, 'endless')));
      for (const res of stuck) {
        assert.equal(res.status, 400, JSON.stringify(res.json));
        assert.equal(res.json.code, 'CASE_REPORT_RENDER_FAILED');
        assert.match(res.json.message, /could not be rendered within 1 s/);
      }
    } finally {
      ctx.config.pdfRenderTimeoutMs = limit;
    }
    // the renderer is free again: ordinary renders are answered
    const fine = await Promise.all(Array.from({ length: 3 }, () => renderPdf(api, kase.id, 'agreement')));
    for (const res of fine) assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.match(pdfText(fine[0].bytes), /Acme/);
  });

  test('render refusals: unknown case, template or signer, drafts only, a template that fails', async () => {
    const api = await newWorkspace();
    const other = await newWorkspace();
    const kase = await newCase(api);
    const otherCase = await newCase(other);
    await publishedTemplate(api, 'agreement', CONTRACT);
    await publishedTemplate(other, 'theirs', CONTRACT);

    const unknownCase = await renderPdf(api, '00000000-0000-4000-8000-000000000000', 'agreement');
    assert.equal(unknownCase.status, 404);
    assert.match(unknownCase.json.message, /Case/);
    assert.equal((await renderPdf(api, 'not-a-uuid', 'agreement')).status, 400);
    const unknownTemplate = await renderPdf(api, kase.id, 'nope');
    assert.equal(unknownTemplate.status, 404);
    assert.match(unknownTemplate.json.message, /Document template/);
    // another workspace's case and template are not found
    assert.equal((await renderPdf(api, otherCase.id, 'agreement')).status, 404);
    assert.equal((await renderPdf(api, kase.id, 'theirs')).status, 404);

    await api.post('/v1/document-templates', { key: 'drafty', name: 'Drafts only', kind: 'report' });
    await api.post('/v1/document-templates/drafty/versions', { content: '<p>draft</p>' });
    const drafts = await renderPdf(api, kase.id, 'drafty');
    assert.equal(drafts.status, 400);
    assert.equal(drafts.json.code, 'DOCUMENT_TEMPLATE_NOT_PUBLISHED');
    assert.match(drafts.json.message, /no published version/);

    const otherPerson = otherCase.individuals[0].id;
    const foreignSigner = await renderPdf(api, kase.id, 'agreement', { individual_id: otherPerson });
    assert.equal(foreignSigner.status, 400);
    assert.equal(foreignSigner.json.details[0].path, 'individual_id');
    const badSigner = await renderPdf(api, kase.id, 'agreement', { individual_id: 'x' });
    assert.equal(badSigner.status, 400);
    assert.equal(badSigner.json.details[0].path, 'individual_id');
    const extra = await renderPdf(api, kase.id, 'agreement', { timezone: 'UTC' });
    assert.equal(extra.status, 400);
    assert.equal(extra.json.details[0].path, 'timezone');

    // fails when run (#with needs an argument): refused when saved since walk 54, so a version
    // saved before that, written here straight to the table
    await publishedTemplate(api, 'failing', '<p>fine</p>');
    await (await getHarness()).ctx.db
      .updateTable('document_template_versions')
      .set({ content: '<p>{{#with}}x{{/with}}</p>' })
      .where('content', '=', '<p>fine</p>')
      .where('template_id', 'in', (eb) =>
        eb
          .selectFrom('document_templates')
          .select('id')
          .where('key', '=', 'failing')
          .where('workspace_id', '=', api.workspaceId),
      )
      .execute();
    const failed = await renderPdf(api, kase.id, 'failing');
    assert.equal(failed.status, 400);
    assert.equal(failed.json.code, 'CASE_REPORT_RENDER_FAILED');
    assert.match(failed.json.message, /#with requires exactly one argument/);
  });

  describe('sandbox', () => {
    let server: http.Server;
    const hits: string[] = [];
    before(async () => {
      server = http.createServer((req, res) => {
        hits.push(req.url ?? '');
        res.end('body{color:red}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    test('no request leaves the page, no script runs, no prototype is reachable', async () => {
      const api = await newWorkspace();
      const kase = await newCase(api);
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const png =
        'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
      await publishedTemplate(
        api,
        'hostile',
        `<html><head><link rel="stylesheet" href="${base}/style.css">
<style>@import url("${base}/import.css"); body { background: url("${base}/bg.png"); }
@font-face { font-family: x; src: url("${base}/font.woff"); } p { font-family: x; }</style>
<meta http-equiv="refresh" content="0; url=${base}/refresh">
<meta http-equiv="re&#102;resh" content="0; url=${base}/refresh2"></head><body>
<p>Visible {{case.name}}</p>
<img src="${base}/pixel.png"><img src="file:///etc/hostname"><img src="${png}">
<iframe src="${base}/frame"></iframe><object data="${base}/object"></object>
<script>document.write('SCRIPT RAN'); fetch('${base}/fetch');</script>
<p>[{{constructor.name}}][{{__proto__.constructor}}][{{case.constructor.name}}][{{lookup case "__proto__"}}]</p>
</body></html>`,
      );
      const res = await renderPdf(api, kase.id, 'hostile');
      assert.equal(res.status, 200, JSON.stringify(res.json));
      const text = pdfText(res.bytes);
      assert.match(text, /Visible Acme onboarding/);
      assert.doesNotMatch(text, /SCRIPT RAN/);
      assert.match(text, /\[\]\[\]\[\]\[\]/);
      assert.deepEqual(hits, [], 'the page made no request');
    });
  });

  test('no browser: 502 CASE_REPORT_RENDER_FAILED saying how to install one', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    await publishedTemplate(api, 'agreement', CONTRACT);
    const { ctx } = await getHarness();
    const saved = ctx.config.chromiumPath;
    ctx.config.chromiumPath = '/nonexistent/chromium';
    try {
      const res = await renderPdf(api, kase.id, 'agreement');
      assert.equal(res.status, 502);
      assert.equal(res.json.code, 'CASE_REPORT_RENDER_FAILED');
      assert.match(res.json.message, /no browser at \/nonexistent\/chromium/);
      assert.match(res.json.message, /apt-get install -y chromium/);
      assert.match(res.json.message, /VERICASE_CHROMIUM_PATH/);
    } finally {
      ctx.config.chromiumPath = saved;
    }
    assert.equal((await renderPdf(api, kase.id, 'agreement')).status, 200);
  });

  test('a browser that died is started again on the next render', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    await publishedTemplate(api, 'agreement', CONTRACT);
    assert.equal((await renderPdf(api, kase.id, 'agreement')).status, 200);
    // the browser is a child of this process (the app runs in it): kill it as a crash would
    const children = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], {
      encoding: 'utf8',
    })
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter(([, comm]) => comm && /chrom/i.test(comm))
      .map(([pid]) => Number(pid));
    assert.ok(children.length >= 1, 'a browser process is running');
    for (const pid of children) process.kill(pid, 'SIGKILL');
    for (const pid of children) {
      // wait until the kernel has it gone (no timer: each probe is a syscall)
      while (alive(pid)) await new Promise((resolve) => setImmediate(resolve));
    }
    const res = await renderPdf(api, kase.id, 'agreement');
    assert.equal(res.status, 200, JSON.stringify(res.json));
    assert.match(pdfText(res.bytes), /Acme SAS/);
  });

  test('concurrent drafts get distinct numbers; concurrent renders all complete', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    await api.post('/v1/document-templates', { key: 'busy', name: 'Busy', kind: 'report' });
    const drafts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.post('/v1/document-templates/busy/versions', { content: `<p>v${i} {{case.name}}</p>` }),
      ),
    );
    assert.deepEqual(
      drafts.map((d) => d.status),
      [201, 201, 201, 201, 201, 201],
    );
    assert.deepEqual(
      drafts.map((d) => d.body.number).sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6],
    );
    await api.post('/v1/document-templates/busy/versions/6/publish');
    // more than the renderer takes at once (4): the others wait their turn
    const renders = await Promise.all(Array.from({ length: 7 }, () => renderPdf(api, kase.id, 'busy')));
    assert.deepEqual(
      renders.map((r) => r.status),
      [200, 200, 200, 200, 200, 200, 200],
    );
    const v6 = drafts.find((d) => d.body.number === 6)?.body.content.slice(3, 5);
    for (const r of renders) assert.match(pdfText(r.bytes), new RegExp(`${v6} Acme onboarding`));
  });

  test('a three-page document has three pages', async () => {
    const api = await newWorkspace();
    const kase = await newCase(api);
    const page = (n: number) =>
      `<section style="page-break-after: always"><h2>Part ${n}</h2><p>{{case.name}}</p></section>`;
    await publishedTemplate(api, 'three', `<html><body>${page(1)}${page(2)}<h2>Part 3</h2></body></html>`);
    const res = await renderPdf(api, kase.id, 'three');
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-document-pages'], '3');
    const text = pdfText(res.bytes);
    for (const n of [1, 2, 3]) assert.match(text, new RegExp(`Part ${n}`));
    assert.match(text, /3 ?\/ ?3/);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // a killed child stays a zombie until reaped: treat it as gone
    return !/^Z/.test(execFileSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' }).trim());
  } catch {
    return false;
  }
}
