/**
 * The console's build (scripts/build-web.ts runs it after the portal's): its own base `/console/`,
 * output in web/dist/console with content-hashed assets, served by src/web-assets.
 */
import path from 'node:path';
import { defineConfig } from 'vite';

const root = import.meta.dirname;

export default defineConfig({
  root,
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: path.join(root, 'dist/console'),
    emptyOutDir: true,
    assetsDir: 'assets',
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    rolldownOptions: { input: { console: path.join(root, 'console/index.html') } },
  },
  server: {
    // dev loop: `npx vite --config web/console.vite.config.ts`, API from the service on VERICASE_DEV_API
    proxy: {
      '/v1': process.env.VERICASE_DEV_API ?? 'http://127.0.0.1:3000',
      '/console/api': process.env.VERICASE_DEV_API ?? 'http://127.0.0.1:3000',
    },
  },
});
