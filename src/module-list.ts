import { caseReportsModule } from './case-reports/module.ts';
import { checksModule } from './checks/module.ts';
import { documentOrdersModule } from './company-data/document-orders/module.ts';
import { companyDataModule } from './company-data/module.ts';
import { companyMonitoringModule } from './company-data/monitoring/module.ts';
import { embeddedMaintenanceModule } from './embedded-maintenance/module.ts';
import { filesModule } from './files/module.ts';
import { fraudDatabaseModule } from './fraud-database/module.ts';
import { idempotencyModule } from './http/idempotency-prune.ts';
import { mailModule } from './mail/module.ts';
import type { Module } from './modules.ts';
import { pdfRenderModule } from './pdf-render/module.ts';
import { portalApiModule } from './portal/module.ts';
import { screeningModule } from './screening/service/module.ts';
import { signingModule } from './signing/module.ts';
import { templatesModule } from './templates/module.ts';
import { webAssetsModule } from './web-assets/module.ts';
import { webhooksModule } from './webhooks/module.ts';

/** Feature modules, in dependency order. One line per module. */
export const MODULES: Module[] = [
  filesModule,
  mailModule,
  signingModule,
  checksModule,
  screeningModule,
  webhooksModule,
  idempotencyModule,
  templatesModule,
  documentOrdersModule,
  companyDataModule,
  companyMonitoringModule,
  caseReportsModule,
  fraudDatabaseModule,
  webAssetsModule,
  portalApiModule,
  pdfRenderModule,
  embeddedMaintenanceModule,
];
