/**
 * Worker thread of `loadDirectoryInWorker` (list-load.ts): loads the reference directory given in
 * workerData, posts the index back (typed arrays transferred) and exits.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { indexTransfer } from '../engine/build.ts';
import { type ListLoadReply, type ListLoadRequest, loadDirectoryInProcess } from './list-load.ts';

/** The error's own properties that are plain values (code, errno, syscall, path...): clone drops them. */
function plainProps(err: unknown): Record<string, unknown> | undefined {
  if (!(err instanceof Error)) return undefined;
  const props: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(err)) {
    if (v === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof v)) props[k] = v;
  }
  return props;
}

const port = parentPort;
if (!port) throw new Error('list-load.worker.ts runs in a worker thread (see list-load.ts)');
const { dir, options } = workerData as ListLoadRequest;
try {
  const load = await loadDirectoryInProcess(dir, options);
  const { data, transfer } = indexTransfer(load.prepared.index);
  const reply: ListLoadReply = {
    ok: true,
    statSignature: load.statSignature,
    fingerprint: load.fingerprint,
    lists: load.prepared.lists,
    legalForms: load.prepared.legalForms,
    index: data,
    threadId,
  };
  port.postMessage(reply, transfer);
} catch (err) {
  try {
    port.postMessage({ ok: false, error: err, props: plainProps(err) } satisfies ListLoadReply);
  } catch {
    // not clonable: what the service keeps of it
    const e = err as Error;
    port.postMessage({
      ok: false,
      error: Object.assign(new Error(String(e?.message ?? err)), { stack: e?.stack }),
    } satisfies ListLoadReply);
  }
}
