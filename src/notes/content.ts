import { randomUUID } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import { badRequest } from '../http/errors.ts';
import { lazyRequire } from '../shared/lazy-module.ts';
import { fillMentions } from './mentions.ts';
import { MAX_CONTENT_TEXT } from './schemas.ts';

/**
 * Note and comment content is a small subset of HTML (reference rules): anything else is stripped,
 * links open in a new tab without referrer, bare URLs become links, line breaks become `<br />`, and
 * content not starting with `<p>` or `<ul>` is wrapped in a paragraph. sanitize-html does the
 * parsing: hand-written HTML filtering is how stored XSS happens.
 */
// required by the first note written (src/shared/lazy-module.ts)
const sanitizer = lazyRequire<typeof import('sanitize-html')>('sanitize-html');
const LINK_ATTRS = { target: '_blank', rel: 'noopener noreferrer' };
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<]+[^\s<.,;:!?)'"]/g;

/** What content keeps; a second pass with these alone tidies the HTML after mentions are filled. */
const ALLOWED = {
  allowedTags: ['p', 'b', 'i', 'em', 'strong', 'a', 'li', 'ul', 'span', 'br', 'hr'],
  allowedAttributes: { a: ['href', 'target', 'rel'], span: ['data-type', 'data-id', 'data-label'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  // `//host/…` (or `\\host`) is another site on the reader's scheme: the console dropped such
  // links but API clients got them; a path on this service stays
  allowProtocolRelative: false,
};

/**
 * The content in the allowed subset. Each user mention's span becomes
 * `<span data-type="mention" data-id="…">{mentionText}</span>`, whatever label and text it had:
 * fillMentions writes them from the user it points at (mentions.ts).
 */
export function cleanContent(raw: string, mentionText: string): string {
  const withBreaks = raw
    .replace(/\r\n?/g, '\n')
    .replace(/\n/g, '<br />')
    // a table is not kept, its text is: a cell's end is a space and a row's a line break, or
    // `<td>cell1</td><td>cell2</td>` read "cell1cell2"
    .replace(/<\/t[dh]\s*>/gi, ' $&')
    .replace(/<\/tr\s*>/gi, '<br />$&');
  const html = sanitizer()(withBreaks, {
    ...ALLOWED,
    transformTags: {
      a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, ...LINK_ATTRS } }),
      span: (tagName, attribs) =>
        attribs['data-type'] === 'mention'
          ? {
              tagName,
              attribs: { 'data-type': 'mention', 'data-id': attribs['data-id'] ?? '' },
              text: mentionText,
            }
          : { tagName, attribs },
    },
    // text arrives escaped, so the URL cannot carry markup; links already written are left alone
    textFilter: (text, tag) =>
      tag === 'a'
        ? text
        : text.replace(
            URL_IN_TEXT,
            (url) => `<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`,
          ),
  }).trim();
  const collapsed = collapseMentions(html, mentionText);
  return /^<(p|ul)[\s>]/i.test(collapsed) ? collapsed : `<p>${collapsed}</p>`;
}

const MENTION_OPEN = /<span data-type="mention" data-id="[^"]*">/g;
const SPAN_TAG = /<(\/?)span\b[^>]*>/g;

/**
 * Each mention span holds only `text`: sanitize-html's `text` replaces the span's own text but keeps
 * nested elements (`<b>Foo</b> <i>bar</i>` left `<i>bar</i>` after the name). The sanitized HTML is
 * well formed (quoted attributes, every span closed), so the mention ends at its balancing `</span>`.
 */
function collapseMentions(html: string, text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    MENTION_OPEN.lastIndex = from;
    const open = MENTION_OPEN.exec(html);
    if (!open) break;
    const inner = open.index + open[0].length;
    out += `${html.slice(from, inner)}${text}</span>`;
    let depth = 1;
    from = html.length;
    SPAN_TAG.lastIndex = inner;
    for (let tag = SPAN_TAG.exec(html); tag; tag = SPAN_TAG.exec(html)) {
      depth += tag[1] ? -1 : 1;
      if (depth === 0) {
        from = tag.index + tag[0].length;
        break;
      }
    }
  }
  return out + html.slice(from);
}

/** Text length of HTML content, tags ignored and entities counted as one character. */
export function textLength(html: string): number {
  return html.replace(/<[^>]*>/g, '').replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, '_').length;
}

/**
 * Cleans the content and fills its mentions in (mentions.ts), then rejects it when blank once tags
 * are removed, or longer than the limit (a mention's `@name` counts as text).
 */
export async function checkContent(db: Db, workspaceId: string, raw: string): Promise<string> {
  // a fresh marker per call: no content can write it, so only the spans cleanContent made carry it
  const marker = `@mention-${randomUUID()}@`;
  const cleaned = cleanContent(raw, marker);
  // the second pass tidies what filling the mentions wrote
  const html = cleaned.includes(marker)
    ? sanitizer()(await fillMentions(db, workspaceId, cleaned, marker), ALLOWED)
    : cleaned;
  const text = html.replace(/<[^>]*>/g, '');
  if (!text.trim()) {
    // said apart from an empty one: "must not be empty" for a content of scripts puzzled its author
    throw badRequest(
      raw.trim()
        ? 'content has no text once its HTML is cleaned (scripts, styles, event handlers and unknown tags are removed)'
        : 'content must not be empty',
      'content',
    );
  }
  const n = textLength(html);
  if (n > MAX_CONTENT_TEXT)
    throw badRequest(
      `content is ${n} characters long without HTML tags; the maximum is ${MAX_CONTENT_TEXT}`,
      'content',
    );
  return html;
}
