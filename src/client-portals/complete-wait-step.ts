import type { Static } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { lockCase } from '../cases/repository.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { findPortal } from './default-portal.ts';
import type { CompleteWaitStepBody } from './schemas.ts';

/**
 * POST /v1/cases/{id}/complete-client-portal-wait-step: releases the step the contact waits on
 * (default; none when it waits on none), or completes a named step of the case's portal ahead of
 * time so the contact never waits on it. Answers the keys this request completed.
 */
export async function completeClientPortalWaitStep(
  ctx: AppContext,
  workspaceId: string,
  caseId: string,
  input: Static<typeof CompleteWaitStepBody>,
) {
  return ctx.db.transaction().execute(async (trx) => {
    const kase = await lockCase(trx, workspaceId, caseId);
    if (!kase) throw notFound('Case');
    if (input.client_portal_id) {
      const named = await findPortal(trx, workspaceId, input.client_portal_id);
      if (!named) throw notFound('Client portal', 'client_portal_id');
      if (named.id !== kase.client_portal_id) {
        throw badRequest(
          'client_portal_id is not the portal this case was shared through',
          'client_portal_id',
        );
      }
    }
    const portal = kase.client_portal_id
      ? await findPortal(trx, workspaceId, kase.client_portal_id)
      : undefined;
    if (!portal) {
      throw badRequest('No client portal link was shared for this case: it has no wait step', 'id');
    }
    const completed = kase.completed_wait_step_keys;
    let key: string;
    if (input.wait_step_key !== undefined) {
      key = input.wait_step_key;
      if (!portal.wait_steps.some((s) => s.key === key)) {
        throw badRequest(
          `wait_step_key "${key}" is not a wait step of the client portal "${portal.name}"`,
          'wait_step_key',
        );
      }
      if (completed.includes(key)) {
        throw badRequest(`wait_step_key "${key}" is already completed for this case`, 'wait_step_key');
      }
    } else {
      // "complete every pending step": none pending completes none (200, an empty list), as the
      // reference's clients call it whether or not the contact waits
      if (!kase.client_portal_wait_step_key) return { completed_wait_step_keys: [] as string[] };
      key = kase.client_portal_wait_step_key;
    }
    await trx
      .updateTable('cases')
      .set({
        completed_wait_step_keys: [...completed, key],
        client_portal_wait_step_key:
          kase.client_portal_wait_step_key === key ? null : kase.client_portal_wait_step_key,
      })
      .where('id', '=', kase.id)
      .execute();
    return { completed_wait_step_keys: [key] };
  });
}
