import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import { notFound } from '../http/errors.ts';
import { definitionsQuery, valuesInUse } from './derived-definitions.ts';
import { presentDefinition } from './present.ts';
import type { CustomPropertyDetailed, TargetEntity } from './schemas.ts';

/** One definition; a choices property also lists its options (the values in use). */
export async function getCustomProperty(
  db: Db,
  workspaceId: string,
  target: TargetEntity,
  key: string,
): Promise<Static<typeof CustomPropertyDetailed>> {
  const row = await db
    .selectFrom(definitionsQuery(workspaceId, target).as('cp'))
    .selectAll()
    .where('key', '=', key)
    .executeTakeFirst();
  if (!row) throw notFound('Custom property');
  const definition = presentDefinition(row, target);
  if (row.type !== 'choices') return definition as Static<typeof CustomPropertyDetailed>;
  const values = await valuesInUse(db, workspaceId, target, key);
  return { ...definition, type: 'choices', options: values.map((v) => ({ label: v, key: v })) } as Static<
    typeof CustomPropertyDetailed
  >;
}
