import { registerActivityRoutes } from '../activities/routes.ts';
import type { App, AppContext } from '../app-context.ts';
import { registerAuditLogRoutes } from '../audit-log/routes.ts';
import { registerCaseReportRoutes } from '../case-reports/routes.ts';
import { registerCaseDocumentRoutes } from '../cases/documents/routes.ts';
import { registerCheckRoutes } from '../checks/routes.ts';
import { registerClientPortalRoutes } from '../client-portals/routes.ts';
import { registerCompanyRoutes } from '../companies/routes.ts';
import { registerCompanyVendorDataRoutes } from '../companies/vendor-data/routes.ts';
import { registerDocumentOrderRoutes } from '../company-data/document-orders/routes.ts';
import { registerCompanyDataRoutes } from '../company-data/routes.ts';
import { registerCustomPropertyRoutes } from '../custom-properties/routes.ts';
import { registerDocumentTemplateRoutes } from '../document-templates/routes.ts';
import { registerDocumentTypeRoutes } from '../document-types/routes.ts';
import { registerFileRoutes } from '../files/routes.ts';
import { registerFraudDatabaseRoutes } from '../fraud-database/routes.ts';
import { registerIndividualRoutes } from '../individuals/routes.ts';
import { registerNoteRoutes } from '../notes/routes.ts';
import { registerRelationRoutes } from '../relations/routes.ts';
import { registerReviewQueueRoutes } from '../review-queue/routes.ts';
import { registerReviewRoutes } from '../reviews/routes.ts';
import { registerRiskRoutes } from '../risks/routes.ts';
import { registerScreeningRoutes } from '../screening/routes.ts';
import { registerTagRoutes } from '../tags/routes.ts';
import { registerTemplateRoutes } from '../templates/routes.ts';
import { registerUserRoutes } from '../users/routes.ts';
import { registerWebhookRoutes } from '../webhooks/routes.ts';
import { registerApiKeyRoutes } from '../workspaces/api-key-routes.ts';

/** Route modules mounted under /v1 (besides ping, cases and settings). One line per resource. */
export const V1_ROUTE_MODULES: ((app: App, ctx: AppContext) => void)[] = [
  registerCompanyRoutes,
  registerIndividualRoutes,
  registerRelationRoutes,
  registerCheckRoutes,
  registerNoteRoutes,
  registerTagRoutes,
  registerReviewRoutes,
  registerRiskRoutes,
  registerFileRoutes,
  registerScreeningRoutes,
  registerTemplateRoutes,
  registerWebhookRoutes,
  registerCaseDocumentRoutes,
  registerUserRoutes,
  registerCustomPropertyRoutes,
  registerCompanyVendorDataRoutes,
  registerActivityRoutes,
  registerCompanyDataRoutes,
  registerDocumentOrderRoutes,
  registerCaseReportRoutes,
  registerDocumentTypeRoutes,
  registerFraudDatabaseRoutes,
  registerClientPortalRoutes,
  registerDocumentTemplateRoutes,
  registerApiKeyRoutes,
  registerAuditLogRoutes,
  registerReviewQueueRoutes,
];
