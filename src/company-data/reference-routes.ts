import type { App, AppContext } from '../app-context.ts';
import { registerCountryRoutes } from './countries/routes.ts';
import { registerLegalFormRoutes } from './legal-forms/routes.ts';

/** The company-data reference lists: countries (with their provider) and ISO 20275 legal forms. */
export function registerReferenceDataRoutes(app: App, ctx: AppContext): void {
  registerCountryRoutes(app, ctx);
  registerLegalFormRoutes(app, ctx);
}
