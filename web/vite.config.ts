/**
 * The web pages' build (`npm install` runs it through scripts/build-web.ts). One Vite project, one
 * entry per page (the portal now, the console later), sharing web/shared; output in web/dist
 * (gitignored) with content-hashed asset names, served by src/web-assets.
 */
import path from 'node:path';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

export default defineConfig({
  root,
  // the pages are served under /portal/ and their assets under /portal/assets/ (src/web-assets)
  base: '/portal/',
  // JSX through Vite's own transform (no React plugin: there is no fast refresh to need it for)
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: path.join(root, 'dist'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // only current browsers are supported: no polyfill, nothing inlined (the CSP allows no inline script)
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rolldownOptions: {
      input: { portal: path.join(root, 'portal/index.html') },
    },
  },
  server: {
    // dev loop: `npx vite web`, page at /portal/portal/, API from the service on VERICASE_DEV_API
    proxy: { '/portal/api': process.env.VERICASE_DEV_API ?? 'http://127.0.0.1:3000' },
  },
});
