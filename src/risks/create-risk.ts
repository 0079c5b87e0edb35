import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Static } from 'typebox';
import { presentCase } from '../cases/present.ts';
import { lockCase } from '../cases/repository.ts';
import type { Db } from '../db/connect.ts';
import { updateIfChanged } from '../db/update-if-changed.ts';
import { recordEvents } from '../events/record-event.ts';
import { badRequest, notFound } from '../http/errors.ts';
import { getSettings } from '../settings/repository.ts';
import { commentOrNull } from '../shared/comment-or-null.ts';
import { presentRisk } from './present.ts';
import type { RiskCreate } from './schemas.ts';

/**
 * Records an automatic risk assessment computed by the caller and makes it the case's current
 * risk. Refused (400) when the workspace computes risk with online engines. `Case.RiskUpdated` is
 * emitted only when the case's risk changes: an assessment identical to the current risk (level,
 * score, components, flags, comment, mode) is still recorded and answered (201, its own id), but the
 * case keeps its current risk, its `updated_at` and `last_activity_at`, and no event is recorded
 * (the comparison: `columnChanged` in src/db/update-if-changed.ts).
 */
export async function createRisk(
  db: Db,
  workspaceId: string,
  caseId: string,
  input: Static<typeof RiskCreate>,
  /**
   * `manual`: set by a person in the console (the reference's two modes: an officer's decision is
   * not the caller's computed assessment, and the workspace's online engines do not forbid it).
   */
  mode: 'automatic' | 'manual' = 'automatic',
) {
  return db.transaction().execute(async (trx) => {
    const kase = await lockCase(trx, workspaceId, caseId);
    if (!kase) throw notFound('Case');
    const settings = await getSettings(trx, workspaceId);
    if (mode === 'automatic' && settings.risk.online_engines) {
      throw badRequest(
        'Automatic risk cannot be created: this workspace computes risk with online engines (setting risk.online_engines)',
      );
    }
    const row = await trx
      .insertInto('risks')
      .values({
        id: randomUUID(),
        workspace_id: workspaceId,
        case_id: kase.id,
        mode,
        level: input.level,
        comment: commentOrNull(input.comment),
        score: input.score ?? null,
        components: input.components === undefined ? null : JSON.stringify(input.components),
        flags: input.flags === undefined ? null : JSON.stringify(input.flags),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const risk = presentRisk(row);
    const caseRow = await updateIfChanged(
      trx,
      'cases',
      kase.id,
      { risk: JSON.stringify(risk) },
      { updated_at: sql`now()`, last_activity_at: sql`now()` },
    );
    if (!caseRow) return risk;
    await recordEvents(trx, workspaceId, [
      {
        type: 'Case.Updated',
        sub_event: 'Case.RiskUpdated',
        case_id: kase.id,
        payload: { case: presentCase(caseRow), risk },
      },
    ]);
    return risk;
  });
}
