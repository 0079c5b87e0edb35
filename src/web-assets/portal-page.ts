/**
 * The portal page as served: its `<html lang>`, `<title>` and `<noscript>` in the language the
 * browser asks for (Accept-Language), since the link's token is in the URL fragment and the server
 * knows nothing else about the visitor when it sends the page. Once the page runs it reads the
 * session and sets the language and title itself (web/portal/App.tsx); these are what a visitor sees
 * before that, or without JavaScript at all.
 */
import { gzipSync } from 'node:zlib';
import { PORTAL_LANGUAGES } from '../client-portals/schemas.ts';
import type { Asset } from './assets.ts';

export type PageLanguage = (typeof PORTAL_LANGUAGES)[number];

/**
 * Per language: the title (the page's default portal name, `defaultPortalName` in
 * web/portal/messages*.ts, which the page itself shows once loaded) and why nothing else shows.
 */
export const PAGE_TEXTS: Record<PageLanguage, { title: string; noscript: string }> = {
  en: {
    title: 'Client portal',
    noscript: 'This page needs JavaScript: please turn it on in your browser, then open the link again.',
  },
  fr: {
    title: 'Portail client',
    noscript:
      'Cette page a besoin de JavaScript : activez-le dans votre navigateur, puis ouvrez de nouveau le lien.',
  },
  it: {
    title: 'Portale clienti',
    noscript: 'Questa pagina richiede JavaScript: lo attivi nel browser, poi apra di nuovo il link.',
  },
  de: {
    title: 'Kundenportal',
    noscript:
      'Diese Seite benötigt JavaScript: Bitte aktivieren Sie es in Ihrem Browser und öffnen Sie den Link dann erneut.',
  },
  es: {
    title: 'Portal del cliente',
    noscript: 'Esta página necesita JavaScript: actívelo en su navegador y vuelva a abrir el enlace.',
  },
  nl: {
    title: 'Klantportaal',
    noscript: 'Deze pagina heeft JavaScript nodig: schakel het in uw browser in en open de link opnieuw.',
  },
  pt: {
    title: 'Portal do cliente',
    noscript: 'Esta página precisa de JavaScript: ative-o no seu navegador e volte a abrir o link.',
  },
  pl: {
    title: 'Portal klienta',
    noscript:
      'Ta strona wymaga JavaScriptu: prosimy włączyć go w przeglądarce, a następnie ponownie otworzyć link.',
  },
  hu: {
    title: 'Ügyfélportál',
    noscript:
      'Ehhez az oldalhoz JavaScript szükséges: kérjük, kapcsolja be a böngészőjében, majd nyissa meg újra a linket.',
  },
  ja: {
    title: 'お客様ポータル',
    noscript:
      'このページには JavaScript が必要です。ブラウザで JavaScript を有効にしてから、もう一度リンクを開いてください。',
  },
  ko: {
    title: '고객 포털',
    noscript:
      '이 페이지를 사용하려면 JavaScript가 필요합니다. 브라우저에서 JavaScript를 켠 후 링크를 다시 열어 주세요.',
  },
};

/**
 * The best language of an Accept-Language header among the page's: the highest weighted tag whose
 * primary subtag the page has (`fr-CA` → `fr`), ties in the header's order; English when none
 * (a missing or malformed header, `*`, only languages the page lacks, `q=0`).
 */
export function pageLanguage(header: string | undefined): PageLanguage {
  const ranked = String(header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => /^q=/i.test(p));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { primary: tag.trim().toLowerCase().split('-')[0], weight, index };
    })
    .filter((t) => Number.isFinite(t.weight) && t.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  const hit = ranked.find((t) => (PORTAL_LANGUAGES as readonly string[]).includes(t.primary));
  return (hit?.primary as PageLanguage | undefined) ?? 'en';
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The built page with its lang, title and noscript in `lang` (each built once per page and language). */
const localised = new WeakMap<Asset, Map<PageLanguage, Asset>>();
export function localisedPage(page: Asset, lang: PageLanguage): Asset {
  let byLang = localised.get(page);
  if (!byLang) {
    byLang = new Map();
    localised.set(page, byLang);
  }
  const hit = byLang.get(lang);
  if (hit) return hit;
  const { title, noscript } = PAGE_TEXTS[lang];
  const html = page.body
    .toString('utf8')
    .replace(/<html\b[^>]*>/, `<html lang="${lang}">`)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace(/<noscript>[\s\S]*?<\/noscript>/, `<noscript>${escapeHtml(noscript)}</noscript>`);
  const body = Buffer.from(html, 'utf8');
  const asset: Asset = { body, type: page.type, gzip: page.gzip ? gzipSync(body) : null };
  byLang.set(lang, asset);
  return asset;
}
