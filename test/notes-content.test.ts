import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { newWorkspace } from './helpers/harness.ts';

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
      [
        '<span data-type="mention" data-id="user:1" style="color:red">@x</span>',
        '<p><span data-type="mention" data-id="user:1">@x</span></p>',
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
});
