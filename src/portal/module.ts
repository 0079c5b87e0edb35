import type { Module } from '../modules.ts';
import { registerPortalRoutes } from './routes.ts';

/** The client portal's JSON API (/portal/api), authorised by a link's token instead of the API key. */
export const portalApiModule: Module = {
  name: 'portal-api',
  install() {},
  routes: registerPortalRoutes,
};
