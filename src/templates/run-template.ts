import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { presentCase } from '../cases/present.ts';
import { lockCase } from '../cases/repository.ts';
import { recordEvents } from '../events/record-event.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { applyTemplate } from './apply-template.ts';
import { findTemplate } from './repository.ts';
import { resolveTemplateRef, setCaseTemplate } from './resolve-template.ts';
import type { RunTemplate } from './schemas.ts';

/**
 * Runs a template on an existing case (one transaction): `template_key` (or `template_id`) sets
 * the case's template first (`Case.TemplateUpdated`); without either, the case's own template runs.
 * Returns the entities the run created checks on.
 */
export async function runTemplate(ctx: AppContext, workspaceId: string, input: Static<typeof RunTemplate>) {
  return ctx.db.transaction().execute(async (trx) => {
    const kase = await lockCase(trx, workspaceId, input.case_id);
    if (!kase) throw notFound('Case', 'case_id');
    let template = await resolveTemplateRef(trx, workspaceId, input);
    if (!template) {
      if (!kase.template_id)
        throw badRequest('The case has no template: give template_key to choose one', 'template_key');
      template = (await findTemplate(trx, workspaceId, kase.template_id)) ?? null;
      if (!template)
        throw badRequest(
          "The case's template was deleted: give template_key to choose another",
          'template_key',
        );
    }
    if (kase.template_id !== template.id) {
      const updated = await setCaseTemplate(trx, kase.id, template, true);
      await recordEvents(trx, workspaceId, [
        {
          type: 'Case.Updated',
          sub_event: 'Case.TemplateUpdated',
          case_id: kase.id,
          payload: { case: presentCase(updated) },
        },
      ]);
    }
    const result = await applyTemplate(ctx, trx, workspaceId, kase.id, template);
    return { case_id: kase.id, company_ids: result.companyIds, individual_ids: result.individualIds };
  });
}
