import type { App, AppContext } from '../app-context.ts';

/** Route modules mounted under /v1 (besides ping, cases and settings). One line per resource. */
export const V1_ROUTE_MODULES: ((app: App, ctx: AppContext) => void)[] = [];
