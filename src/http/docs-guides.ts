/**
 * The guides next to the API reference: `/docs/guides/{name}` renders docs/{name}.md (the sandbox's
 * deterministic behaviours, webhooks and their signatures, ...) as a page; the reference's
 * introduction links to them. Rendered once per process on first request, from the repository's own
 * files (trusted content: no user input reaches them).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PACKAGE_ROOT } from '../shared/package-root.ts';
import { errorBody } from './errors.ts';

const DOCS_DIR = path.join(PACKAGE_ROOT, 'docs');

/** The guides shown, in the order of the index; each is docs/<name>.md. */
export const GUIDES: readonly { name: string; title: string }[] = [
  { name: 'sandbox', title: 'Sandbox providers: what each input gives' },
  { name: 'webhooks', title: 'Webhooks: events, delivery and signatures' },
  { name: 'client-portal', title: 'The client portal' },
  { name: 'company-data', title: 'Company data' },
  { name: 'screening', title: 'AML screening' },
  { name: 'case-graph', title: 'The case graph: companies, individuals, relations' },
  { name: 'templates', title: 'Templates: the checks a case gets' },
  { name: 'document-checks', title: 'Document checks' },
  { name: 'id-verification', title: 'Identity verification' },
  { name: 'electronic-signature', title: 'Electronic signature' },
  { name: 'document-templates', title: 'Document templates' },
  { name: 'fraud-database', title: 'The fraud database' },
  { name: 'case-reports', title: 'Case reports' },
  { name: 'files', title: 'Files' },
  { name: 'compatibility', title: 'Compatibility with the reference API' },
  { name: 'console', title: 'The console' },
  { name: 'cli', title: 'The command line' },
  { name: 'deployment', title: 'Deployment' },
  { name: 'backup', title: 'Backup and restore' },
];

const CSS = `body{font:16px/1.55 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1d2430}
nav a{margin-right:1rem}pre,code{font:14px ui-monospace,monospace;background:#f3f5f8}pre{padding:.8rem;overflow:auto}
table{border-collapse:collapse}td,th{border:1px solid #d5dae1;padding:.3rem .5rem;vertical-align:top}`;

const HEADERS = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
};

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  // the reference and the index of guides: every guide's name in a row grew past a screen's width
  const nav = [`<a href="/docs">API reference</a>`, `<a href="/docs/guides">Guides</a>`].join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · vericase</title><link rel="stylesheet" href="/docs/guides/guide.css"></head><body><nav>${nav}</nav><main>${body}</main></body></html>`;
}

export function registerDocsGuides(app: FastifyInstance): void {
  const rendered = new Map<string, string>();
  // browsers ask for it on every page (/docs, the portal, the console): no icon, and no 404 either
  app.get('/favicon.ico', { schema: { hide: true } }, async (_req, reply) =>
    reply.code(204).header('cache-control', 'public, max-age=86400').send(),
  );
  app.get('/docs/guides/guide.css', { schema: { hide: true } }, async (_req, reply) =>
    reply.headers(HEADERS).type('text/css; charset=utf-8').send(CSS),
  );
  app.get('/docs/guides', { schema: { hide: true } }, async (_req, reply) => {
    const list = GUIDES.map(
      (g) => `<li><a href="/docs/guides/${g.name}">${escapeHtml(g.title)}</a></li>`,
    ).join('');
    return reply
      .headers(HEADERS)
      .type('text/html; charset=utf-8')
      .send(page('Guides', `<h1>Guides</h1><ul>${list}</ul>`));
  });
  app.get<{ Params: { name: string } }>(
    '/docs/guides/:name',
    { schema: { hide: true } },
    async (req, reply) => {
      const name = req.params.name;
      // the listed guides, and the other docs they link to (docs/<name>.md, nothing else)
      const guide =
        GUIDES.find((g) => g.name === name) ?? ((await docExists(name)) ? { name, title: name } : null);
      if (!guide) return reply.code(404).send(errorBody(404, 'Guide not found'));
      let html = rendered.get(guide.name);
      if (!html) {
        const { marked } = await import('marked');
        const md = await fs.promises.readFile(path.join(DOCS_DIR, `${guide.name}.md`), 'utf8');
        html = page(guide.title, linkGuides(await marked.parse(md)));
        rendered.set(guide.name, html);
      }
      return reply.headers(HEADERS).type('text/html; charset=utf-8').send(html);
    },
  );
}

/** Whether docs/<name>.md exists (a plain name only: no path reaches outside docs/). */
async function docExists(name: string): Promise<boolean> {
  if (!/^[a-z0-9][a-z0-9-]{0,80}$/.test(name)) return false;
  return fs.promises
    .stat(path.join(DOCS_DIR, `${name}.md`))
    .then((st) => st.isFile())
    .catch(() => false);
}

/** Whether docs/<name>.md exists, asked once per rendered page (pages are rendered once per process). */
const docFileExists = (name: string) => fs.existsSync(path.join(DOCS_DIR, `${name}.md`));

/**
 * The docs' links to each other (`webhooks.md#verifying`) as links to their guide pages, and their
 * mentions of another doc by its repository path (`docs/files.md`, in text or in code) as links
 * too, where that doc exists: served, the path alone leads nowhere. Text inside a link or a code
 * block is left as it is.
 */
export function linkGuides(html: string, exists: (name: string) => boolean = docFileExists): string {
  const linked = html.replace(
    /href="([a-z0-9][a-z0-9-]*)\.md(#[^"]*)?"/g,
    (_m, name: string, hash?: string) => `href="/docs/guides/${name}${hash ?? ''}"`,
  );
  let inLink = 0;
  let inPre = 0;
  return linked
    .split(/(<[^>]*>)/)
    .map((part) => {
      if (part.startsWith('<')) {
        const tag = /^<(\/?)([a-z]+)/i.exec(part);
        const delta = tag?.[1] ? -1 : 1;
        if (tag?.[2] === 'a') inLink = Math.max(0, inLink + delta);
        if (tag?.[2] === 'pre') inPre = Math.max(0, inPre + delta);
        return part;
      }
      if (inLink || inPre) return part;
      return part.replace(/\bdocs\/([a-z0-9][a-z0-9-]*)\.md\b/g, (m, name: string) =>
        exists(name) ? `<a href="/docs/guides/${name}">${m}</a>` : m,
      );
    })
    .join('');
}
