import type { CheckEnvelopeOut } from '../checks/envelope-schema.ts';
import { presentCheckEnvelope } from '../checks/present.ts';
import { checkEnvelopesByEntity } from '../checks/repository.ts';
import type { Module } from '../modules.ts';
import { applyTemplate, changesTargets, targetOfChange } from './apply-template.ts';
import { evaluateAutoApproval } from './auto-approval.ts';
import { changeCaseTemplate } from './change-case-template.ts';
import { findTemplate } from './repository.ts';
import { resolveTemplateRef, setCaseTemplate } from './resolve-template.ts';

/**
 * Templates: `template_key` at case creation creates the template's checks in the case's
 * transaction, and case auto-approval follows every check change.
 */
export const templatesModule: Module = {
  name: 'templates',
  install(ctx) {
    ctx.hooks.afterCaseCreated = async (trx, { workspaceId, caseId, input, companyIds, individualIds }) => {
      const template = await resolveTemplateRef(trx, workspaceId, input);
      if (!template) return { templateId: null };
      await setCaseTemplate(trx, caseId, template, false);
      return {
        templateId: template.id,
        createChecks: async () => {
          await applyTemplate(ctx, trx, workspaceId, caseId, template, { companyIds, individualIds });
          const map = new Map<string, CheckEnvelopeOut[]>();
          for (const r of await checkEnvelopesByEntity(trx, caseId, false)) {
            const key = (r.company_id ?? r.individual_id) as string;
            map.set(key, [...(map.get(key) ?? []), presentCheckEnvelope(r)]);
          }
          return map;
        },
      };
    };
    ctx.hooks.afterCaseEntitiesChanged = async (trx, workspaceId, caseId, change) => {
      // an update that touches no targeting column (a name, an e-mail...) makes no new target
      if ('before' in change && !changesTargets(change.before, change.after)) return false;
      const kase = await trx
        .selectFrom('cases')
        .select('template_id')
        .where('id', '=', caseId)
        .executeTakeFirst();
      if (!kase?.template_id) return false;
      const template = await findTemplate(trx, workspaceId, kase.template_id);
      if (!template) return false;
      const { checks } = await applyTemplate(ctx, trx, workspaceId, caseId, template, {
        skipExisting: true,
        ...targetOfChange(change),
      });
      return checks.length > 0;
    };
    ctx.hooks.changeCaseTemplate = (trx, workspaceId, caseRow, ref) =>
      changeCaseTemplate(ctx, trx, workspaceId, caseRow, ref);
    const previous = ctx.hooks.afterCaseChecksChanged;
    ctx.hooks.afterCaseChecksChanged = async (trx, caseRow) => {
      await previous?.(trx, caseRow);
      await evaluateAutoApproval(trx, caseRow);
    };
    ctx.hooks.afterCaseOpened = async (trx, caseRow) => {
      await evaluateAutoApproval(trx, caseRow);
    };
  },
};
