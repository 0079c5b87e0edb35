import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import type { CaseRow, TemplateRow } from '../db/schema.ts';
import { badRequest } from '../http/errors.ts';
import { templateLight } from './present.ts';
import { findTemplate, findTemplateByKey } from './repository.ts';

/** The template named by `template_key` (or the deprecated `template_id`); unknown → 400 naming it. */
export async function resolveTemplateRef(
  db: Db,
  workspaceId: string,
  ref: { template_key?: string | null; template_id?: string | null },
): Promise<TemplateRow | null> {
  const key = ref.template_key ?? null;
  const id = ref.template_id ?? null;
  if (key !== null && id !== null)
    throw badRequest('Give template_key or template_id, not both (template_id is deprecated)', 'template_id');
  if (key !== null) {
    const t = await findTemplateByKey(db, workspaceId, key);
    if (!t) throw badRequest(`template_key: no template with key "${key}" in this workspace`, 'template_key');
    return t;
  }
  if (id !== null) {
    const t = await findTemplate(db, workspaceId, id);
    if (!t) throw badRequest(`template_id: no template with id ${id} in this workspace`, 'template_id');
    return t;
  }
  return null;
}

/** Sets the case's template (id and its {id, name, key} snapshot). */
export async function setCaseTemplate(trx: Db, caseId: string, template: TemplateRow, touch: boolean) {
  return trx
    .updateTable('cases')
    .set({
      template_id: template.id,
      template: JSON.stringify(templateLight(template)),
      // another template: the one whose check was deleted no longer decides the case
      template_check_deleted_at: null,
      ...(touch ? { updated_at: sql`now()`, last_activity_at: sql`now()` } : {}),
    })
    .where('id', '=', caseId)
    .returningAll()
    .executeTakeFirstOrThrow() as Promise<CaseRow>;
}
