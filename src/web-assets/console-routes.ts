/**
 * Serves the operator console (`/console/` and every page address under it: the page routes in the
 * browser) and its hashed assets (`/console/assets/*`). Its sign-in API lives at /console/api
 * (src/console-auth); an unknown /console/api path is a JSON 404, never the page.
 */
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../app-context.ts';
import { errorBody } from '../http/errors.ts';
import { AssetStore, WEB_DIST } from './assets.ts';
import { hashedAssetHandler, sendAsset } from './send-asset.ts';

/**
 * The console's policy: its own scripts and styles, images and frames from itself and the blob: URLs
 * it makes (documents fetched with the session, shown side by side with their data), API calls to
 * itself only, no framing by others, no Referer.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "frame-src 'self' blob:",
  "object-src 'none'",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': CONSOLE_CSP,
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
  'cross-origin-opener-policy': 'same-origin',
};

export function registerConsoleRoutes(app: App, store = new AssetStore(path.join(WEB_DIST, 'console'))) {
  const page = async (req: FastifyRequest, reply: FastifyReply) => {
    if (req.url.startsWith('/console/api/') || req.url === '/console/api') {
      return reply.code(404).send(errorBody(404, `Route ${req.method} ${req.url.split('?')[0]} not found`));
    }
    const html = await store.get('console/index.html');
    reply.headers(PAGE_HEADERS);
    if (!html) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .send(
          'The console web assets are not built. Run `npm install` (or `npm ci`) in the service directory, which builds them into web/dist.\n',
        );
    }
    return sendAsset(req, reply, html);
  };
  // `/console` and `/console/` are one route (ignoreTrailingSlash); deeper addresses are the page's own
  app.get('/console/', { schema: { hide: true } }, page);
  app.get('/console/*', { schema: { hide: true } }, page);

  app.get<{ Params: { name: string } }>(
    '/console/assets/:name',
    { schema: { hide: true } },
    hashedAssetHandler(store),
  );
}
