import { sql } from 'kysely';
import type { AppContext } from '../app-context.ts';
import { originAfterUpdate } from '../company-data/lineage/origin-after-update.ts';
import type { Db } from '../db/connect.ts';
import { updateIfChanged } from '../db/update-if-changed.ts';
import { bankingValue, fullAddress, mergeAddress } from '../shared/address.ts';

/** What an update of a company or an individual reads of its stored row and of its body. */
interface StoredEntity {
  address: unknown;
  banking_information: unknown;
}
interface EntityUpdateInput {
  address?: Record<string, unknown> | null;
  banking_information?: Record<string, unknown> | null;
  is_relevant?: boolean;
}

/**
 * Updates a company or an individual (locked by the caller) with its own fields (`own`, from the
 * type's explicit list) and `address` and `banking_information` merged into what is stored (read
 * under the case's lock). Only when a stored value changes does it write them, with its stamps and
 * which fields it changed, so no longer hold the registry's value (GET /v1/cases/{id}?property_origin=true).
 * Undefined when the update changes nothing (the caller then records no event: a no-op).
 */
export async function updateEntityRow<T extends 'companies' | 'individuals'>(
  trx: Db,
  table: T,
  current: StoredEntity & { id: string },
  input: EntityUpdateInput,
  own: Record<string, unknown>,
) {
  const set = entityUpdateColumns(current, input, own);
  const alongside: Record<string, unknown> = { updated_at: sql`now()`, last_activity_at: sql`now()` };
  // the fields whose stored value changes, not every field given (a repeated value keeps its origin)
  const origin = originAfterUpdate(table, set);
  if (origin) alongside.property_origin = origin;
  return updateIfChanged(trx, table, current.id, set, alongside);
}

/** The stored values an update of a company or an individual gives (compared before written). */
function entityUpdateColumns(
  current: StoredEntity,
  input: EntityUpdateInput,
  own: Record<string, unknown>,
): Record<string, unknown> {
  const set: Record<string, unknown> = { ...own };
  if (input.address)
    set.address = JSON.stringify(
      mergeAddress(fullAddress(current.address as Record<string, unknown> | null), input.address),
    );
  if (input.banking_information !== undefined) {
    const banking = bankingValue(
      current.banking_information as Record<string, unknown> | null,
      input.banking_information,
    );
    set.banking_information = banking ? JSON.stringify(banking) : null;
  }
  return set;
}

/**
 * What follows an update of a company or an individual in its transaction, after its event: the
 * case's template gives an entity that became a target the checks it lacks, as one added later (a
 * refusal, e.g. the check limit, undoes the whole update); a change of relevance changes which
 * checks count in the case's flags. True when the template created checks (the answer shows them).
 */
export async function followEntityUpdate(
  ctx: AppContext,
  trx: Db,
  workspaceId: string,
  change: { before: object & { id: string }; after: object & { id: string; case_id: string } },
  input: EntityUpdateInput,
): Promise<boolean> {
  const caseId = change.after.case_id;
  const templated = await ctx.hooks.afterCaseEntitiesChanged?.(trx, workspaceId, caseId, change);
  if (input.is_relevant !== undefined) {
    await ctx.hooks.afterCaseCountedChecksChanged?.(trx, workspaceId, caseId);
  }
  return templated ?? false;
}
