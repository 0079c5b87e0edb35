/**
 * The whole document to sign, from its frozen HTML, in a frame that runs nothing: no script (the
 * frame's sandbox has no allow-scripts, and the page's CSP allows only the page's own files), no
 * form, no navigation of the page or of the frame (a link opens in a new tab, or scrolls to its place
 * in the document), no request to anywhere (images only from data:).
 *
 * Why not `sandbox=""` with the HTML as srcdoc: a srcdoc frame inherits the page's CSP, which has no
 * 'unsafe-inline' styles (on purpose, tested), so the document's own <style> and style="" would be
 * dropped and the signer would read it differently from the PDF. Instead the page applies the
 * styles itself through the CSSOM (a constructed stylesheet and `style.cssText`, which the CSP does
 * not govern); that needs the frame to be same-origin (`sandbox="allow-same-origin"`), which is safe
 * because nothing can run inside it.
 *
 * The styles come already apart from the server (`…/signature/document-parts`): taking them out
 * here meant parsing them, and Chromium reports a CSP violation for every <style> and style="" its
 * HTML parser meets, even in a DOMParser document that is never shown (two console errors or more
 * for each document, though it showed correctly).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { DocumentParts } from './api.ts';

interface Prepared {
  markup: string;
  css: string;
  inline: string[];
}

/** Elements that could fetch, embed or run something: removed before the HTML reaches the frame. */
const DROP = 'script, link, base, meta, iframe, frame, object, embed, form, noscript, template';

/** A readable frame: white paper, the document's own margins kept. */
const BASE_CSS =
  'html{background:#fff;color:#111}body{margin:16px;overflow-wrap:anywhere}img{max-width:100%}';

/**
 * What may not reach the frame is removed. The markup has no <style> and no style="" left (the
 * server took them out), so this parse meets no inline style; one that still had some (a document
 * the server's parser read differently) is removed here too, never applied.
 */
function prepare(parts: DocumentParts): Prepared {
  const doc = new DOMParser().parseFromString(parts.markup, 'text/html');
  for (const el of doc.querySelectorAll(`${DROP}, style`)) el.remove();
  for (const el of doc.querySelectorAll('*')) {
    for (const attr of [...el.attributes]) if (/^on/i.test(attr.name)) el.removeAttribute(attr.name);
    // the PDF was rendered with every network request blocked: only embedded (data:) images show
    if (el.hasAttribute('src') && !/^data:/i.test(el.getAttribute('src') ?? '')) el.removeAttribute('src');
    el.removeAttribute('srcset');
    el.removeAttribute('style');
  }
  return { markup: `<!doctype html>${doc.documentElement.outerHTML}`, css: parts.css, inline: parts.inline };
}

/** Addresses a link of the document may open, in a new tab: never in the frame. */
const OPENED = /^(?:https?:|mailto:|tel:)/i;

/**
 * A click on a link of the document. Followed in the frame, it loaded nothing (the page's CSP lets
 * no address into a frame) but replaced the document with the browser's "This content is blocked"
 * until the page was reloaded. So no link navigates the frame: one to a place in the document
 * (`#part-2`) scrolls there, one to a web or mail address opens in a new tab (without access back
 * to this page), any other (relative, `javascript:`…) does nothing. The listener is the page's own
 * code on the frame's document (same-origin), which runs although nothing of the frame can.
 */
function onLinkClick(event: MouseEvent) {
  const link = (event.target as Element | null)?.closest?.('a, area');
  if (!link) return;
  event.preventDefault();
  const href = (link.getAttribute('href') ?? link.getAttribute('xlink:href') ?? '').trim();
  const doc = link.ownerDocument;
  if (href.startsWith('#')) {
    let id = href.slice(1);
    try {
      id = decodeURIComponent(id);
    } catch {
      // a malformed escape: the id as written
    }
    const target = id ? (doc.getElementById(id) ?? doc.getElementsByName(id)[0]) : doc.body;
    target?.scrollIntoView({ block: 'start' });
  } else if (OPENED.test(href)) {
    window.open(href, '_blank', 'noopener,noreferrer');
  }
}

export function DocumentFrame({ parts, title }: { parts: DocumentParts; title: string }) {
  const frame = useRef<HTMLIFrameElement>(null);
  const prepared = useMemo(() => prepare(parts), [parts]);
  const [height, setHeight] = useState(480);

  const fit = useCallback(() => {
    // the root's own box (scrollHeight is at least the frame's current height, so it never shrinks)
    const d = frame.current?.contentDocument;
    if (d?.documentElement)
      setHeight(Math.max(200, Math.ceil(d.documentElement.getBoundingClientRect().height) + 4));
  }, []);

  // the listener is on the element from its creation (a prop), so the frame's load is never missed
  const onLoad = () => {
    const f = frame.current;
    const d = f?.contentDocument;
    const w = f?.contentWindow as (Window & typeof globalThis) | null | undefined;
    if (!f || !d || !w) return;
    const sheet = new w.CSSStyleSheet();
    sheet.replaceSync(`${BASE_CSS}\n${prepared.css}`);
    d.adoptedStyleSheets = [sheet];
    d.addEventListener('click', onLinkClick);
    for (const el of d.querySelectorAll<HTMLElement>('[data-vc-style]'))
      el.style.cssText = prepared.inline[Number(el.dataset.vcStyle)] ?? '';
    fit();
    f.dataset.ready = 'true';
  };

  useEffect(() => {
    window.addEventListener('resize', fit);
    return () => window.removeEventListener('resize', fit);
  }, [fit]);

  return (
    <iframe
      ref={frame}
      className="document-frame"
      title={title}
      sandbox="allow-same-origin"
      srcDoc={prepared.markup}
      height={height}
      onLoad={onLoad}
    />
  );
}
