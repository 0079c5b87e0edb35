import type { Db } from '../db/connect.ts';
import type { RelationRow } from '../db/schema.ts';

export async function relationsFrom(db: Db, sourceId: string): Promise<RelationRow[]> {
  return db
    .selectFrom('relations')
    .selectAll()
    .where((eb) => eb.or([eb('from_company_id', '=', sourceId), eb('from_individual_id', '=', sourceId)]))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** Number of relations touching an entity, on either end. */
export async function countRelationsTouching(db: Db, entityId: string): Promise<number> {
  const row = await db
    .selectFrom('relations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where((eb) =>
      eb.or([
        eb('from_company_id', '=', entityId),
        eb('from_individual_id', '=', entityId),
        eb('to_company_id', '=', entityId),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
