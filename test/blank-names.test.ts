import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newWorkspace } from './helpers/harness.ts';

/**
 * A name, label or title a person reads is refused when it is only white space: `'   '` passes a
 * minimum length and then shows nothing in the console, the portal or a report. The 400 names the
 * field and nothing is written.
 */
function assertBlankRefused(res: { status: number; body: any }, path: string) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.ok(
    res.body.details?.some(
      (d: { path: string; message: string }) => d.path === path && /must not be blank/.test(d.message),
    ),
    JSON.stringify(res.body),
  );
  assert.match(res.body.message, /must not be blank/);
}

describe('display texts of white space only are refused', () => {
  test('cases, companies and individuals, nested or on their own, created or updated', async () => {
    const api = await newWorkspace();
    assertBlankRefused(await api.post('/v1/cases', { name: '   ' }), 'name');
    assertBlankRefused(
      await api.post('/v1/cases', { name: 'Blank graph', companies: [{ name: '\t \n' }] }),
      'companies[0].name',
    );
    assertBlankRefused(
      await api.post('/v1/cases', {
        name: 'Blank graph',
        companies: [{ name: 'Main SAS' }],
        individuals: [{ first_name: 'Ada', last_name: ' ' }],
      }),
      'individuals[0].last_name',
    );
    const list = await api.get('/v1/cases');
    assert.equal(list.body.data.length, 0, 'no case written');

    const kase = await api.post('/v1/cases', {
      name: 'Named',
      companies: [{ name: 'Main SAS' }],
      individuals: [{ first_name: 'Ada', last_name: 'Lovelace' }],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const { id, companies, individuals } = kase.body;
    assertBlankRefused(await api.patch(`/v1/cases/${id}`, { name: '  ' }), 'name');
    assertBlankRefused(await api.patch(`/v1/companies/${companies[0].id}`, { name: ' ' }), 'name');
    assertBlankRefused(
      await api.patch(`/v1/companies/${companies[0].id}`, { commercial_name: '\u00a0' }),
      'commercial_name',
    );
    assertBlankRefused(
      await api.patch(`/v1/individuals/${individuals[0].id}`, { first_name: '  ' }),
      'first_name',
    );
    assertBlankRefused(
      await api.post('/v1/companies', { case_id: id, type: 'affiliated', name: ' ' }),
      'name',
    );
    assertBlankRefused(
      await api.post('/v1/individuals', { case_id: id, first_name: 'Grace', last_name: '   ' }),
      'last_name',
    );
    const stored = (await api.get(`/v1/cases/${id}`)).body;
    assert.equal(stored.name, 'Named');
    assert.equal(stored.companies.length, 1);
    assert.equal(stored.companies[0].name, 'Main SAS');
    assert.deepEqual(
      stored.individuals.map((i: { first_name: string; last_name: string }) => [i.first_name, i.last_name]),
      [['Ada', 'Lovelace']],
    );
    // a name with spaces around real characters is a name
    const padded = await api.patch(`/v1/cases/${id}`, { name: '  Padded  ' });
    assert.equal(padded.status, 200, JSON.stringify(padded.body));
  });

  test('webhooks, API keys and templates', async () => {
    const api = await newWorkspace();
    assertBlankRefused(
      await api.post('/v1/webhooks', { url: 'https://example.com/hook', events: ['*'], name: '   ' }),
      'name',
    );
    assertBlankRefused(await api.post('/v1/api-keys', { name: ' ' }), 'name');
    assertBlankRefused(await api.post('/v1/templates', { key: 'blank', name: '\t' }), 'name');
    assert.equal((await api.get('/v1/webhooks')).body.data.length, 0, 'no webhook written');
    const templates = (await api.get('/v1/templates')).body.data as { key: string }[];
    assert.ok(!templates.some((t) => t.key === 'blank'), 'no template written');
  });

  test('invisible characters alone are blank: zero-width, joiners, soft hyphen, fillers', async () => {
    // walk: a case, company or individual named "\u200b" was created, a tag labelled so too, and
    // showed as nothing wherever it was displayed
    const api = await newWorkspace();
    const invisibles = [
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\u180e',
      '\u00ad',
      '\u034f',
      ' \u200b\u00a0\u3164 ',
    ];
    for (const blank of invisibles) {
      const shown = JSON.stringify(blank);
      assertBlankRefused(await api.post('/v1/cases', { name: blank }), 'name');
      assertBlankRefused(
        await api.post('/v1/cases', { name: 'Graph', companies: [{ name: blank }] }),
        'companies[0].name',
      );
      assertBlankRefused(
        await api.post('/v1/cases', {
          name: 'Graph',
          individuals: [{ first_name: blank, last_name: 'Doe' }],
        }),
        'individuals[0].first_name',
      );
      const tag = await api.post('/v1/tags', { label: blank });
      assert.equal(tag.status, 400, `${shown}: ${JSON.stringify(tag.body)}`);
      assert.equal(tag.body.details[0].path, 'label', shown);
      assert.match(tag.body.message, /blank/, shown);
    }
    assert.equal((await api.get('/v1/cases')).body.data.length, 0, 'no case written');
    assert.equal((await api.get('/v1/tags')).body.data.length, 0, 'no tag written');

    const kase = await api.post('/v1/cases', {
      name: 'Named',
      companies: [{ name: 'Main SAS' }],
      individuals: [{ first_name: 'Ada', last_name: 'Lovelace' }],
    });
    assert.equal(kase.status, 201, JSON.stringify(kase.body));
    const { id, companies, individuals } = kase.body;
    assertBlankRefused(await api.patch(`/v1/cases/${id}`, { name: '\u200b' }), 'name');
    assertBlankRefused(await api.patch(`/v1/companies/${companies[0].id}`, { name: '\u2060' }), 'name');
    assertBlankRefused(
      await api.patch(`/v1/individuals/${individuals[0].id}`, { last_name: '\u00ad' }),
      'last_name',
    );
    const caseTags = await api.post(`/v1/cases/${id}/tags`, { tags: ['\u200d'] });
    assert.equal(caseTags.status, 400, JSON.stringify(caseTags.body));
    assert.match(caseTags.body.message, /blank/);
    assert.equal((await api.get('/v1/tags')).body.data.length, 0, 'no tag written');
    const stored = (await api.get(`/v1/cases/${id}`)).body;
    assert.equal(stored.name, 'Named');
    assert.equal(stored.companies[0].name, 'Main SAS');
    assert.equal(stored.individuals[0].last_name, 'Lovelace');
    // a visible text carrying such characters is a text (a soft hyphen in a long name, a ZWJ emoji)
    for (const name of ['Dona\u00aduschiffahrt', 'Team \u{1F469}\u200d\u{1F4BB}']) {
      const ok = await api.patch(`/v1/cases/${id}`, { name });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.name, name);
    }
  });
});
