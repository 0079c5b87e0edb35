import { badRequest } from '../../../http/errors.ts';
import type { CheckTypeDefinition, CreatePlan } from '../../check-type.ts';
import { CompanyMonitoringCreateBody, CompanyMonitoringData, MONITORED_CATEGORIES } from './schemas.ts';
import { COMPANY_MONITORING_TRANSITIONS } from './transitions.ts';

/**
 * Registry changes after onboarding. Read-only over the API (spec): created by company-data
 * monitoring (src/company-data/monitoring/) for companies linked to their registry record when the
 * workspace enables it (`checks.company_monitoring.enabled`), moved by its runs.
 */
export const companyMonitoringCheck: CheckTypeDefinition = {
  type: 'company_monitoring',
  docs: {
    title: 'Company monitoring',
    about:
      'Created by the service for companies linked to a registry when company monitoring is enabled in the workspace settings: it records what changed in the registry since the last reading. It cannot be created or reviewed over the API: a console user reviews the changes it raised.',
  },
  pathAliases: ['company-monitoring'],
  readOnly: true,
  targets: ['company'],
  isInternal: false,
  createBody: CompanyMonitoringCreateBody,
  dataSchema: CompanyMonitoringData,
  transitions: COMPANY_MONITORING_TRANSITIONS,

  async create({ target }): Promise<CreatePlan> {
    const c = target.row;
    if (target.kind !== 'company' || !('registry_vendor' in c) || !c.registry_vendor)
      throw badRequest('company_monitoring watches companies linked to their registry record', 'company_id');
    return {
      status: 'approved',
      data: {
        result: 'approved',
        settings: { alert_categories: [...MONITORED_CATEGORIES] },
        vendor: { name: c.registry_vendor, is_monitored: true },
        review: {
          comment: 'Monitoring started: the registry data the company was linked with is the baseline',
          reviewed_at: new Date().toISOString(),
          reviewer_type: 'system',
          user: null,
        },
        registry: { country: c.registry_country ?? '', vendor_ref: c.registry_vendor_ref ?? '' },
        changes: null,
      },
    };
  },
};
