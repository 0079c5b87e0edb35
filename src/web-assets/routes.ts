/**
 * Serves the portal page (`GET /portal/`) and its hashed assets (`/portal/assets/*`). A few lines of
 * our own rather than @fastify/static: two routes, a fixed file set, the exact headers wanted per
 * route, and no directory walking to guard.
 */
import type { App } from '../app-context.ts';
import { AssetStore } from './assets.ts';
import { localisedPage, pageLanguage } from './portal-page.ts';
import { hashedAssetHandler, sendAsset } from './send-asset.ts';

/**
 * The page's policy: its own scripts and styles only, images from itself and the blob: URLs it
 * makes (logo, photo previews), the camera through getUserMedia (media from blob:/mediastream),
 * no framing, no Referer (the token never travels in it, but nothing else needs to either).
 */
export const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': PAGE_CSP,
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'permissions-policy': 'camera=(self), microphone=(), geolocation=()',
  'cross-origin-opener-policy': 'same-origin',
};

export function registerWebAssetRoutes(app: App, store = new AssetStore()) {
  // `/portal` and `/portal/` are one route (ignoreTrailingSlash); the page asks for /portal/assets/...
  app.get('/portal/', { schema: { hide: true } }, async (req, reply) => {
    const page = await store.get('portal/index.html');
    reply.headers(PAGE_HEADERS);
    if (!page) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          'The portal web assets are not built. Run `npm install` (or `npm ci`) in the service directory, which builds them into web/dist.\n',
        );
    }
    // the body follows Accept-Language (lang, title, noscript): a cache keying it must say so
    reply.header('vary', 'accept-language');
    return sendAsset(req, reply, localisedPage(page, pageLanguage(req.headers['accept-language'])));
  });

  app.get<{ Params: { name: string } }>(
    '/portal/assets/:name',
    { schema: { hide: true } },
    hashedAssetHandler(store),
  );
}
