import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createConsoleUser } from './helpers/console-session.ts';
import { getHarness, newWorkspace } from './helpers/harness.ts';

describe('note content', () => {
  test('is cleaned to the allowed HTML subset, links made safe, URLs linked, lines broken', async () => {
    const api = await newWorkspace();
    const c = (await api.post('/v1/cases', { name: 'x' })).body;
    const cases: [string, string][] = [
      ['Plain text', '<p>Plain text</p>'],
      ['line one\nline two', '<p>line one<br />line two</p>'],
      [
        '<p>Hi <b>bold</b> <script>alert(1)</script><img src=x onerror=alert(1)></p>',
        '<p>Hi <b>bold</b> </p>',
      ],
      [
        '<a href="https://example.com" onclick="x()">site</a>',
        '<p><a href="https://example.com" target="_blank" rel="noopener noreferrer">site</a></p>',
      ],
      [
        '<a href="javascript:alert(1)">bad</a>',
        '<p><a target="_blank" rel="noopener noreferrer">bad</a></p>',
      ],
      // protocol-relative: another site on the reader's scheme, however the slashes are written
      ['<a href="//evil.example/x">rel</a>', '<p><a target="_blank" rel="noopener noreferrer">rel</a></p>'],
      ['<a href="\\/evil.example/x">rel</a>', '<p><a target="_blank" rel="noopener noreferrer">rel</a></p>'],
      // a path on this service stays
      [
        '<a href="/console/cases">list</a>',
        '<p><a href="/console/cases" target="_blank" rel="noopener noreferrer">list</a></p>',
      ],
      [
        'see https://example.com/a?b=1.',
        '<p>see <a href="https://example.com/a?b=1" target="_blank" rel="noopener noreferrer">https://example.com/a?b=1</a>.</p>',
      ],
      ['<ul><li>one</li></ul>', '<ul><li>one</li></ul>'],
      // a table is not kept; its cells are apart and its rows on their own lines
      [
        '<table><tr><th>Name</th><th>Share</th></tr><tr><td>Acme</td><td>70%</td></tr></table>',
        '<p>Name Share <br />Acme 70% <br /></p>',
      ],
    ];
    for (const [input, stored] of cases) {
      const res = await api.post('/v1/notes', { case_id: c.id, content: input });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.content, stored, input);
    }
    const note = (await api.get(`/v1/cases/${c.id}/notes`)).body.data[2];
    assert.equal(note.content, '<p>Hi <b>bold</b> </p>');
    const comment = await api.post(`/v1/notes/${note.id}/comments`, {
      content: '<i>ok</i><iframe src=x></iframe>',
    });
    assert.equal(comment.body.content, '<p><i>ok</i></p>');
    const empty = await api.post('/v1/notes', { case_id: c.id, content: '<script>only script</script>' });
    assert.equal(empty.status, 400);
    assert.equal(empty.body.details[0].path, 'content');
    // said as what happened: the content was not empty, its text was cleaned away
    assert.match(empty.body.message, /^content has no text once its HTML is cleaned \(scripts/);
    const blank = await api.post('/v1/notes', { case_id: c.id, content: '  ' });
    assert.equal(blank.body.message, 'content must not be empty');
  });

  test('a user mention gets its label and text from the user it points at, whatever the request wrote', async () => {
    const { ctx } = await getHarness();
    const api = await newWorkspace();
    const other = await newWorkspace();
    const c = (await api.post('/v1/cases', { name: 'Mentions' })).body;
    const ada = await createConsoleUser(ctx, api.workspaceId, {
      role: 'reviewer',
      firstName: 'Ada',
      lastName: 'Lovelace & Co',
    });
    const nameless = await createConsoleUser(ctx, api.workspaceId, {
      role: 'viewer',
      firstName: '',
      lastName: '',
    });
    const stranger = await createConsoleUser(ctx, other.workspaceId, { role: 'admin', firstName: 'Eve' });
    const res = await api.post('/v1/notes', {
      case_id: c.id,
      content: `Hi <span data-type="mention" data-id="user:${ada.id}"></span>, see <span data-label="Someone else" style="color:red" data-id="user:${nameless.id}" data-type="mention">@Someone <b>else</b></span>`,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(
      res.body.content,
      `<p>Hi <span data-type="mention" data-id="user:${ada.id}" data-label="Ada Lovelace &amp; Co">@Ada Lovelace &amp; Co</span>, see ` +
        `<span data-type="mention" data-id="user:${nameless.id}" data-label="${nameless.email}">@${nameless.email}</span></p>`,
    );
    // comments too
    const comment = await api.post(`/v1/notes/${res.body.id}/comments`, {
      content: `<span data-type="mention" data-id="user:${ada.id}">@Ada</span> agreed`,
    });
    assert.equal(comment.status, 201, JSON.stringify(comment.body));
    assert.match(
      comment.body.content,
      /data-label="Ada Lovelace &amp; Co">@Ada Lovelace &amp; Co<\/span> agreed/,
    );
    // nested markup inside a mention goes with its text, however deep: the span holds the name only
    const deep = await api.post(`/v1/notes/${res.body.id}/comments`, {
      content: `<span data-type="mention" data-id="user:${ada.id}"><b>Bo</b> <i>ld</i> <span>x<em>y</em></span> z</span> ok <i>kept</i>`,
    });
    assert.equal(deep.status, 201, JSON.stringify(deep.body));
    assert.equal(
      deep.body.content,
      `<p><span data-type="mention" data-id="user:${ada.id}" data-label="Ada Lovelace &amp; Co">@Ada Lovelace &amp; Co</span> ok <i>kept</i></p>`,
    );
    // a mention of anyone else is refused, naming content, and nothing is written
    for (const dataId of [
      `user:${stranger.id}`,
      'user:00000000-0000-4000-8000-000000000000',
      'user:1',
      'team:ops',
    ]) {
      const bad = await api.post('/v1/notes', {
        case_id: c.id,
        content: `<span data-type="mention" data-id="${dataId}">@x</span> hi`,
      });
      assert.equal(bad.status, 400, dataId);
      assert.equal(bad.body.details[0].path, 'content', dataId);
    }
    assert.equal((await api.get(`/v1/cases/${c.id}/notes`)).body.data.length, 1);
    // (the refusals above wrote nothing: one note so far)
    // a span inside a mention goes with its text, and what follows stays whole
    const nested = await api.post('/v1/notes', {
      case_id: c.id,
      content: `<p><span data-type="mention" data-id="user:${ada.id}"><span data-id="x">@Ada</span></span> <i>then</i></p>`,
    });
    assert.equal(
      nested.body.content,
      `<p><span data-type="mention" data-id="user:${ada.id}" data-label="Ada Lovelace &amp; Co">@Ada Lovelace &amp; Co</span> <i>then</i></p>`,
    );
    // a span that is no mention is left as written
    const plain = await api.post('/v1/notes', { case_id: c.id, content: '<span data-id="x">plain</span>' });
    assert.equal(plain.body.content, '<p><span data-id="x">plain</span></p>');
  });

  test('the OpenAPI document says the content is sanitised, not stored as given', async () => {
    const { app } = await getHarness();
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    const described: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      if (!path.startsWith('/v1/notes')) continue;
      for (const op of Object.values(ops)) {
        const body = op?.requestBody?.content?.['application/json']?.schema;
        const ref = body?.$ref as string | undefined;
        const schema = ref ? doc.components.schemas[ref.split('/').pop() as string] : body;
        const text = schema?.properties?.content?.description;
        if (text) described.push(text);
      }
    }
    assert.ok(described.length >= 1, 'note writes describe their content');
    for (const text of described) {
      assert.doesNotMatch(text, /Stored as given/);
      assert.match(text, /sanitised/);
      assert.match(text, /wrapped in <p>/);
    }
  });
});
