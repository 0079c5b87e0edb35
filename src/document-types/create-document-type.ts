import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { Db } from '../db/connect.ts';
import { conflict } from '../http/errors.ts';
import { isUniqueViolation } from '../shared/pg-errors.ts';
import { presentDocumentType } from './present.ts';
import { findDocumentTypeByKey } from './repository.ts';
import type { DocumentTypeCreate } from './schemas.ts';

/** A workspace's own type. A key taken (by a built-in type or one of the workspace's, archived or not) → 409. */
export async function createDocumentType(
  db: Db,
  workspaceId: string,
  input: Static<typeof DocumentTypeCreate>,
) {
  const taken = (why: string) => conflict(`Document type key ${input.key} ${why}`, 'key');
  const same = await findDocumentTypeByKey(db, workspaceId, input.key);
  if (same) {
    throw taken(
      same.workspace_id === null
        ? 'is a built-in document type'
        : same.archived_at
          ? 'belongs to an archived document type of this workspace'
          : 'already exists in this workspace',
    );
  }
  try {
    const row = await db
      .insertInto('document_types')
      .values({
        id: randomUUID(),
        workspace_id: workspaceId,
        key: input.key,
        label: input.label,
        target_entities: [...input.target_entities],
        is_internal: input.is_internal ?? false,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return presentDocumentType(row);
  } catch (err) {
    if (isUniqueViolation(err, 'document_types_ws_key')) throw taken('already exists in this workspace');
    throw err;
  }
}
