import { badRequest } from '../http/errors.ts';
import { lazyRequire } from '../shared/lazy-module.ts';
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

export function cleanContent(raw: string): string {
  const withBreaks = raw.replace(/\r\n?/g, '\n').replace(/\n/g, '<br />');
  const html = sanitizer()(withBreaks, {
    allowedTags: ['p', 'b', 'i', 'em', 'strong', 'a', 'li', 'ul', 'span', 'br', 'hr'],
    allowedAttributes: { a: ['href', 'target', 'rel'], span: ['data-type', 'data-id', 'data-label'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    // `//host/…` (or `\\host`) is another site on the reader's scheme: the console dropped such
    // links but API clients got them; a path on this service stays
    allowProtocolRelative: false,
    transformTags: { a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, ...LINK_ATTRS } }) },
    // text arrives escaped, so the URL cannot carry markup; links already written are left alone
    textFilter: (text, tag) =>
      tag === 'a'
        ? text
        : text.replace(
            URL_IN_TEXT,
            (url) => `<a href="${url}" target="_blank" rel="noopener noreferrer">${url}</a>`,
          ),
  }).trim();
  return /^<(p|ul)[\s>]/i.test(html) ? html : `<p>${html}</p>`;
}

/** Text length of HTML content, tags ignored and entities counted as one character. */
export function textLength(html: string): number {
  return html.replace(/<[^>]*>/g, '').replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, '_').length;
}

/** Cleans the content, then rejects it when blank once tags are removed, or longer than the limit. */
export function checkContent(raw: string): string {
  const html = cleanContent(raw);
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
