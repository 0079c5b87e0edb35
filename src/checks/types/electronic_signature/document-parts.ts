import { lazyImport } from '../../../shared/lazy-module.ts';

// loaded by the first document shown (src/shared/lazy-module.ts)
const loadParser = lazyImport(() => import('htmlparser2'));

/**
 * The frozen HTML with its styles taken out, for a page whose CSP allows no inline style (the
 * portal's): `markup` is the HTML without its `<style>` elements and with each `style` attribute
 * replaced by `data-vc-style="<n>"`; `css` is the elements' text, in order; `inline[n]` is the
 * n-th attribute's value. The page applies them through the CSSOM, which the CSP does not govern.
 *
 * Why on the server: the browser logs a CSP violation for every `<style>` and `style=""` its HTML
 * parser meets, even in a document that is never shown (DOMParser, a <template>), so the page
 * cannot take them out itself without those errors. Everything else is kept byte for byte: only
 * the start tags that carry a style attribute are written again (from the parsed attributes), and
 * the style elements cut out.
 */
export interface DocumentParts {
  markup: string;
  css: string;
  inline: string[];
}

/** The attribute that stands for a style attribute in `markup`. */
const MARK = 'data-vc-style';

const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

export async function documentParts(html: string): Promise<DocumentParts> {
  const { Parser } = await loadParser();
  const cuts: { from: number; to: number; text: string }[] = [];
  const css: string[] = [];
  const inline: string[] = [];
  let style: { from: number; text: string } | null = null;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'style') {
          style = { from: parser.startIndex, text: '' };
          return;
        }
        // the document's own data-vc-style (if any) goes: the page reads that name as ours
        if (!Object.hasOwn(attribs, 'style') && !Object.hasOwn(attribs, MARK)) return;
        const from = parser.startIndex;
        const to = parser.endIndex + 1;
        const source = html.slice(from, to);
        const attrs = Object.entries(attribs)
          .filter(([k]) => k !== MARK)
          .map(([k, v]) => (k === 'style' ? `${MARK}="${inline.push(v) - 1}"` : `${k}="${escapeAttr(v)}"`));
        // the tag's own name as written (the parser lower-cases it), and its `/>` if it had one
        const tagName = /^<([^\s/>]+)/.exec(source)?.[1] ?? name;
        const close = source.endsWith('/>') ? ' />' : '>';
        cuts.push({ from, to, text: `<${[tagName, ...attrs].join(' ')}${close}` });
      },
      ontext(text) {
        if (style) style.text += text;
      },
      onclosetag(name, implied) {
        if (name !== 'style' || !style) return;
        css.push(style.text);
        // an unclosed <style> runs to the end of the document, as in a browser
        cuts.push({ from: style.from, to: implied ? html.length : parser.endIndex + 1, text: '' });
        style = null;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html);
  let markup = '';
  let at = 0;
  for (const cut of cuts.sort((a, b) => a.from - b.from)) {
    if (cut.from < at) continue; // a tag inside a style element's text is no tag
    markup += html.slice(at, cut.from) + cut.text;
    at = cut.to;
  }
  markup += html.slice(at);
  return { markup, css: css.join('\n'), inline };
}
