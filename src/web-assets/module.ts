import type { Module } from '../modules.ts';
import { registerConsoleRoutes } from './console-routes.ts';
import { registerWebAssetRoutes } from './routes.ts';

/** The built web pages (web/dist): the client portal under /portal, the operator console under /console. */
export const webAssetsModule: Module = {
  name: 'web-assets',
  install() {},
  routes(app) {
    registerWebAssetRoutes(app);
    registerConsoleRoutes(app);
  },
};
