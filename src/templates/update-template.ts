import { sql } from 'kysely';
import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import { updateIfChanged } from '../db/update-if-changed.ts';
import { notFound } from '../http/errors.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { duplicateKey } from './create-template.ts';
import { presentTemplate, templateLight } from './present.ts';
import { findTemplate } from './repository.ts';
import type { TemplateUpdate } from './schemas.ts';
import { validateTemplateCheckData, validateTemplateChecks } from './validate-checks.ts';

/**
 * Changes a template. `checks` replaces the whole list and applies to later runs only (checks
 * already created stay). A new name or key is written to the cases that use the template. A PATCH
 * giving the values the template has changes nothing, not even `updated_at`.
 */
export async function updateTemplate(
  db: Db,
  workspaceId: string,
  id: string,
  input: Static<typeof TemplateUpdate>,
) {
  const checks = input.checks ? validateTemplateChecks(input.checks) : undefined;
  if (checks) await validateTemplateCheckData(db, workspaceId, checks);
  try {
    return await db.transaction().execute(async (trx) => {
      const before = await findTemplate(trx, workspaceId, id, true);
      if (!before) throw notFound('Template');
      const set: Record<string, unknown> = {
        ...(input.key !== undefined ? { key: input.key } : {}),
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.case_auto_approval !== undefined ? { case_auto_approval: input.case_auto_approval } : {}),
        ...(checks ? { checks: JSON.stringify(checks) } : {}),
      };
      // the values it already has change nothing: updated_at stays (a no-op answers the template as is)
      const row = await updateIfChanged(trx, 'templates', before.id, set, { updated_at: sql`now()` });
      if (!row) return presentTemplate(before);
      if (row.name !== before.name || row.key !== before.key) {
        await trx
          .updateTable('cases')
          .set({ template: JSON.stringify(templateLight(row)) })
          .where('workspace_id', '=', workspaceId)
          .where('template_id', '=', id)
          .execute();
      }
      return presentTemplate(row);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'templates_ws_key')) throw duplicateKey(input.key as string);
    throw err;
  }
}
