/**
 * The child process of `loadDirectoryInChild` (list-load.ts): loads the reference directory it is
 * sent, writes the index to the file it is given, answers and exits (its memory with it).
 */
import { writeFile } from 'node:fs/promises';
import v8 from 'node:v8';
import { indexTransfer } from '../engine/build.ts';
import { type ListLoadReply, type ListLoadRequest, loadDirectoryInProcess } from './list-load.ts';

/** The error's own properties that are plain values (code, errno, syscall, path...): cloning drops them. */
function plainProps(err: unknown): Record<string, unknown> | undefined {
  if (!(err instanceof Error)) return undefined;
  const props: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(err)) {
    if (v === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof v)) props[k] = v;
  }
  return props;
}

/** Sends the reply, then leaves: the channel closed, nothing keeps the process alive. */
function reply(message: ListLoadReply): void {
  process.send?.(message, () => process.disconnect());
}

if (!process.send) throw new Error('list-load.worker.ts runs as a child process (see list-load.ts)');
process.once('message', async ({ dir, options, indexFile }: ListLoadRequest) => {
  try {
    const load = await loadDirectoryInProcess(dir, options);
    await writeFile(indexFile, v8.serialize(indexTransfer(load.prepared.index).data));
    reply({
      ok: true,
      statSignature: load.statSignature,
      fingerprint: load.fingerprint,
      lists: load.prepared.lists,
      legalForms: load.prepared.legalForms,
      pid: process.pid,
    });
  } catch (err) {
    try {
      reply({ ok: false, error: err, props: plainProps(err) });
    } catch {
      // not serialisable: what the service keeps of it
      const e = err as Error;
      reply({ ok: false, error: Object.assign(new Error(String(e?.message ?? err)), { stack: e?.stack }) });
    }
  }
});
