/**
 * The child process of `loadDirectoryInChild` (list-load.ts): loads the reference directory it is
 * sent, writes the index to the file it is given (or, when it cannot, sends it with its answer),
 * answers and exits (its memory with it).
 */
import { rmSync } from 'node:fs';
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
/** The index file while this process owns it: from its writing until its answer was sent. */
let ownedFile: string | null = null;

function reply(message: ListLoadReply): void {
  process.send?.(message, (err: Error | null) => {
    if (!err) ownedFile = null; // the service has it, and removes it once read
    process.disconnect();
  });
}

if (!process.send) throw new Error('list-load.worker.ts runs as a child process (see list-load.ts)');
// The service went away (stopped or killed) before the answer: there is no one to load for. Stop now
// rather than parse for seconds, and take the index file along (it would stay in the temporary
// directory). After the answer, the service owns the file and this process leaves anyway.
process.once('disconnect', () => {
  if (ownedFile) rmSync(ownedFile, { force: true });
  process.exit(0);
});
process.once('message', async ({ dir, options, indexFile }: ListLoadRequest) => {
  try {
    const load = await loadDirectoryInProcess(dir, options);
    const index = indexTransfer(load.prepared.index).data;
    // through the file; through the channel when the file cannot be written (a read-only
    // temporary directory, a full disk): more of the service's memory, but the lists load
    ownedFile = indexFile;
    const written = await writeFile(indexFile, v8.serialize(index)).then(
      () => true,
      () => false,
    );
    reply({
      ok: true,
      statSignature: load.statSignature,
      fingerprint: load.fingerprint,
      lists: load.prepared.lists,
      legalForms: load.prepared.legalForms,
      ...(written ? {} : { index }),
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
