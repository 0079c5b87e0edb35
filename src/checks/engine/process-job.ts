import { isDeepStrictEqual } from 'node:util';
import type { AppContext } from '../../app-context.ts';
import { lockLiveCase } from '../../cases/repository.ts';
import { discardGeneratedFile, type GeneratedFile } from '../../files/generated-file.ts';
import { getStorage } from '../../files/storage.ts';
import { inSpan, SpanKind } from '../../ops/tracing.ts';
import { checkTypeDefinition } from '../registry.ts';
import { loadTarget, lockCheckById } from '../repository.ts';
import { applyOutcome } from './apply-change.ts';
import { inLiveCase } from './live-case.ts';

/**
 * Runs a check's provider work. Idempotent: the job acts only if the check is still processing the
 * same attempt with the same inputs (`internal`) it read, so a job that runs twice (retried after a
 * crash) has the effect of running once, and one overtaken by new inputs has none.
 */
export async function processCheckJob(
  ctx: AppContext,
  data: { checkId: string; attempt: number },
  finalAttempt = true,
): Promise<void> {
  // a check of a deleted case is not worked on: its case's Case.Deleted was sent, and nothing of
  // the case may follow it (live-case.ts)
  const snapshot = await ctx.db
    .selectFrom('checks')
    .selectAll()
    .where('id', '=', data.checkId)
    .where(inLiveCase)
    .executeTakeFirst();
  if (snapshot?.status !== 'processing' || snapshot.attempt !== data.attempt) return;
  const def = checkTypeDefinition(snapshot.type);
  if (!def?.process) return;
  const target = await loadTarget(ctx.db, snapshot);
  // provider work happens outside the transaction (it may be slow); the result is applied under lock
  const outcome = await inSpan(
    `provider ${def.type}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'vericase.check_id': snapshot.id, 'vericase.check_type': def.type },
    },
    () => def.process?.({ ctx, check: snapshot, target, finalAttempt }) ?? Promise.resolve(null),
  );
  if (!outcome) return;
  const applied = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const check = await lockCheckById(trx, data.checkId);
      if (check?.status !== 'processing' || check.attempt !== data.attempt) return false;
      // the inputs changed while the provider worked (a document check pushed to review, then given
      // more files: processing again, same attempt): this result is of files no longer the check's,
      // and the change queued the job that reads the new ones
      if (!isDeepStrictEqual(check.internal, snapshot.internal)) return false;
      // the case was deleted while the provider worked: the result is dropped, no event follows the
      // case's Case.Deleted
      if (!(await lockLiveCase(trx, check.case_id))) return false;
      await applyOutcome(ctx, trx, def, check, outcome);
      return true;
    })
    .catch(async (err) => {
      await discardAll(ctx, outcome.generatedFiles);
      throw err;
    });
  // another run (or a review) settled the check meanwhile: the files made for this one are unused
  if (!applied) await discardAll(ctx, outcome.generatedFiles);
}

async function discardAll(ctx: AppContext, files: GeneratedFile[] | undefined): Promise<void> {
  for (const file of files ?? []) await discardGeneratedFile(getStorage(ctx), file);
}
