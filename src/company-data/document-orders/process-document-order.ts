import type { AppContext } from '../../app-context.ts';
import type { Db } from '../../db/connect.ts';
import type { DocumentOrderRow } from '../../db/schema.ts';
import { recordEvents, SYSTEM } from '../../events/record-event.ts';
import { discardGeneratedFile, recordGeneratedFile, storeGeneratedFile } from '../../files/generated-file.ts';
import { getStorage } from '../../files/storage.ts';
import { callRegistry } from '../call-registry.ts';
import { type CompanyRegistryProvider, type OrderedDocument, RegistryError } from '../provider.ts';
import { providerForVendor } from '../provider-registry.ts';
import type { RegistryVendor } from '../vendors.ts';
import { presentDocumentOrder } from './present.ts';
import { DOCUMENT_ORDER_RETRIES } from './queues.ts';
import { lockDocumentOrder, type OrderChange, updateDocumentOrder } from './repository.ts';

const FINAL = new Set(['completed', 'failed']);

/** Changes a locked order and records its event in the same transaction. */
async function settle(trx: Db, order: DocumentOrderRow, change: OrderChange, event: string) {
  const row = await updateDocumentOrder(trx, order.id, change);
  await recordEvents(trx, row.workspace_id, [
    { type: event, payload: { document_order: presentDocumentOrder(row) }, actor: SYSTEM },
  ]);
}

async function fail(ctx: AppContext, orderId: string, reason: string): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const order = await lockDocumentOrder(trx, orderId);
    if (!order || FINAL.has(order.status)) return;
    await settle(trx, order, { status: 'failed', failure_reason: reason }, 'DocumentOrder.Failed');
  });
}

/** What the provider answered: the document, a refusal (order fails), or try again later. */
async function orderFromRegistry(
  ctx: AppContext,
  order: DocumentOrderRow,
): Promise<{ document: OrderedDocument } | { refusal: string } | { unavailable: string }> {
  // the registry the order was placed with, even if the country has another one now
  let provider: CompanyRegistryProvider;
  try {
    provider = providerForVendor(ctx, order.vendor as RegistryVendor);
  } catch (err) {
    return { refusal: `The company registry ${order.vendor} cannot be reached: ${(err as Error).message}` };
  }
  try {
    const ref = { country: order.country, vendorRef: order.registry_ref };
    const document = await callRegistry(ctx, provider, (call) =>
      provider.orderDocument(ref, order.product_ref, call),
    );
    return { document };
  } catch (err) {
    if (!(err instanceof RegistryError)) throw err;
    return err.kind === 'unavailable' ? { unavailable: err.message } : { refusal: err.message };
  }
}

/**
 * The job of one order: `created` → `processing` → `completed` with its file, or `failed` with a
 * reason (the registry refused, or stayed unavailable through every retry). Idempotent: a run that
 * finds the order finished does nothing, and of two runs racing only the first to settle records
 * its file and event (the other drops the bytes it stored).
 */
export async function processDocumentOrder(
  ctx: AppContext,
  data: { orderId: string },
  meta: { retryCount: number },
): Promise<void> {
  const order = await ctx.db.transaction().execute(async (trx) => {
    const row = await lockDocumentOrder(trx, data.orderId);
    if (!row || FINAL.has(row.status)) return undefined;
    return updateDocumentOrder(trx, row.id, { status: 'processing', bumpAttempts: true });
  });
  if (!order) return;
  try {
    await produce(ctx, order, meta);
  } catch (err) {
    // anything that went wrong (registry unavailable, storage, database) is retried; the last run
    // ends the order rather than leaving it processing
    if (meta.retryCount < DOCUMENT_ORDER_RETRIES) throw err;
    await fail(ctx, order.id, 'The document could not be stored (internal error); order it again');
    throw err;
  }
}

/** One run's work on a claimed order: the registry's document stored and recorded, or the failure. */
async function produce(ctx: AppContext, order: DocumentOrderRow, meta: { retryCount: number }) {
  const answer = await orderFromRegistry(ctx, order);
  if ('unavailable' in answer) {
    // thrown: the queue runs the job again later, until its retries are spent
    if (meta.retryCount < DOCUMENT_ORDER_RETRIES)
      throw new Error(`registry unavailable: ${answer.unavailable}`);
    return fail(
      ctx,
      order.id,
      `The company registry (${order.vendor}) stayed unavailable after ${meta.retryCount + 1} attempts: ${answer.unavailable}`,
    );
  }
  if ('refusal' in answer) return fail(ctx, order.id, answer.refusal);

  const storage = getStorage(ctx);
  const file = await storeGeneratedFile(
    storage,
    order.workspace_id,
    answer.document.bytes,
    answer.document.contentType,
  );
  const recorded = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const current = await lockDocumentOrder(trx, order.id);
      if (!current || FINAL.has(current.status)) return false;
      await recordGeneratedFile(trx, file, current.case_id);
      await settle(trx, current, { status: 'completed', file_id: file.id }, 'DocumentOrder.Completed');
      return true;
    })
    .catch(async (err) => {
      await discardGeneratedFile(storage, file);
      throw err;
    });
  if (!recorded) await discardGeneratedFile(storage, file);
}
