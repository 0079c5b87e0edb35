/**
 * The page's own walls, before the browser's (every request refused, JavaScript off):
 * - every `<meta http-equiv>` is removed: `refresh` is the one way plain HTML navigates by itself
 *   (the page would be replaced by an error page, or printing fail, mid-render), and a template's own
 *   Content-Security-Policy could not loosen ours anyway. Attribute values can hide `refresh` behind
 *   character references, so the attribute name decides, not the value;
 * - a Content-Security-Policy allowing only inline styles and data: images and fonts comes first,
 *   so the browser itself refuses anything else even if a request slipped past the router;
 * - UTF-8 is declared (the HTML is a JavaScript string, printed as such).
 */
const HTTP_EQUIV_META = /<meta(?=[\s/>])[^>]*?http-equiv[^>]*>/gi;
const LEADING_DOCTYPE = /^\s*<!doctype[^>]*>/i;

const HEAD =
  '<meta charset="utf-8">' +
  `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:">`;

const HEAD_WITHOUT_CSP = /(?<=^\s*(?:<!doctype[^>]*>)?)<meta charset="utf-8">/i;

export function sealHtml(html: string): string {
  // the head goes back in below: sealing sealed HTML gives the same HTML
  const stripped = html.replace(HTTP_EQUIV_META, '').replace(HEAD_WITHOUT_CSP, '');
  // after a doctype, not before it: a doctype after content puts the page in quirks mode
  const doctype = LEADING_DOCTYPE.exec(stripped)?.[0] ?? '';
  return `${doctype}${HEAD}${stripped.slice(doctype.length)}`;
}
