/**
 * A note's or comment's HTML (the server keeps a small allowed subset, src/notes/content.ts) shown
 * as React elements built from an allowlist: text, paragraphs, line breaks, emphasis, lists and
 * http(s)/mailto links, and user mentions (`<span data-type="mention">`, whose text the server wrote
 * from the user: `@First Last`) highlighted. Nothing else of the markup survives (no innerHTML anywhere).
 */
import type { ReactNode } from 'react';

const BLOCK: Record<string, string> = { p: 'p', ul: 'ul', ol: 'ol', li: 'li', blockquote: 'blockquote' };
const INLINE: Record<string, string> = {
  b: 'strong',
  strong: 'strong',
  i: 'em',
  em: 'em',
  u: 'u',
  s: 's',
  code: 'code',
};

function convert(node: Node, key: string): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const el = node as Element;
  const tag = el.tagName.toLowerCase();
  const children = [...el.childNodes].map((c, i) => convert(c, `${key}.${i}`));
  if (tag === 'br') return <br key={key} />;
  if (tag === 'span' && el.getAttribute('data-type') === 'mention')
    return (
      <span
        key={key}
        className="case-mention"
        data-user-id={el.getAttribute('data-id')?.replace(/^user:/, '')}
      >
        {children}
      </span>
    );
  if (tag === 'a') {
    const href = el.getAttribute('href') ?? '';
    if (/^(https?:|mailto:)/i.test(href))
      return (
        <a key={key} href={href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    return <span key={key}>{children}</span>;
  }
  const Tag = (BLOCK[tag] ?? INLINE[tag] ?? 'span') as 'span';
  return <Tag key={key}>{children}</Tag>;
}

export function RichText({ html }: { html: string }) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return <div className="case-rich">{[...doc.body.childNodes].map((n, i) => convert(n, String(i)))}</div>;
}
