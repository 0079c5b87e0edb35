import type { Module } from '../modules.ts';
import { registerWebAssetRoutes } from './routes.ts';

/** The built web pages (web/dist): the client portal's page and its assets, under /portal. */
export const webAssetsModule: Module = {
  name: 'web-assets',
  install() {},
  routes(app) {
    registerWebAssetRoutes(app);
  },
};
