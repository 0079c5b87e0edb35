import type { Module } from '../../modules.ts';
import { runCompanyMonitoring } from './run-monitoring.ts';

export const COMPANY_MONITORING_QUEUE = 'company-data.monitoring';

/**
 * Company monitoring: a pass every minute re-reads the registry-linked companies that are due
 * (each one every VERICASE_COMPANY_MONITORING_INTERVAL_SECONDS, default a day) in workspaces that
 * enable `checks.company_monitoring`.
 */
export const companyMonitoringModule: Module = {
  name: 'company-monitoring',
  install(ctx) {
    ctx.jobs.define({
      name: COMPANY_MONITORING_QUEUE,
      handler: async () => {
        await runCompanyMonitoring(ctx);
      },
      cron: '* * * * *',
      retryLimit: 0,
      // a pass over many companies calls registries one by one
      expireInSeconds: 3600,
    });
  },
};
