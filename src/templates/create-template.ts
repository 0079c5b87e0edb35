import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import { conflict } from '../http/errors.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { presentTemplate } from './present.ts';
import type { TemplateCreate } from './schemas.ts';
import { validateTemplateCheckData, validateTemplateChecks } from './validate-checks.ts';

export const duplicateKey = (key: string) =>
  conflict(`A template with key "${key}" already exists in this workspace`, 'key');

export async function createTemplate(db: Db, workspaceId: string, input: Static<typeof TemplateCreate>) {
  const checks = validateTemplateChecks(input.checks ?? []);
  await validateTemplateCheckData(db, workspaceId, checks);
  try {
    const row = await db
      .insertInto('templates')
      .values({
        id: randomUUID(),
        workspace_id: workspaceId,
        key: input.key,
        name: input.name,
        description: input.description ?? null,
        case_auto_approval: input.case_auto_approval ?? false,
        checks: JSON.stringify(checks),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentTemplate(row);
  } catch (err) {
    if (isUniqueViolation(err, 'templates_ws_key')) throw duplicateKey(input.key);
    throw err;
  }
}
