/**
 * Loading the lists of a reference directory: reading and parsing its files and building their index.
 * The service does it in a child process (`loadDirectoryInChild`): parsing takes seconds of CPU that
 * would block the event loop, and it leaves tens of MB behind that a process does not give back
 * (V8's grown heap, and the C heap's arenas: a worker thread's freed buffers stayed in this process,
 * 35 MB of an idle service's memory). A child's memory all goes when it exits. Only the finished index
 * comes back, in a temporary file (V8 serialization: typed arrays and strings, no JSON), and what
 * describes it through the IPC channel.
 *
 * `loadDirectoryInProcess` does the same in the calling process (the child runs it; tools and tests may).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { workerFile } from '../../shared/worker-file.ts';
import type { IndexOptions, IndexTransfer } from '../engine/build.ts';
import { indexFromTransfer } from '../engine/build.ts';
import { type ListVersion, type PreparedLists, prepareLists } from '../engine/registry.ts';
import { directoryFingerprint, directoryStatSignature } from './reference-dir.ts';

export interface DirectoryLoad {
  /** `directoryStatSignature` and `directoryFingerprint` of the directory, taken before reading the lists. */
  statSignature: string;
  fingerprint: string;
  prepared: PreparedLists;
  /** The process that read and parsed the lists. */
  pid: number;
}

export type LoadDirectory = (dir: string, options: IndexOptions) => Promise<DirectoryLoad>;

/** What the child is sent: the directory, and the file to write the index to. */
export interface ListLoadRequest {
  dir: string;
  options: IndexOptions;
  indexFile: string;
}

/** What the child sends back: the load (its index in `indexFile`), or the error it failed with. */
export type ListLoadReply =
  | {
      ok: true;
      statSignature: string;
      fingerprint: string;
      lists: ListVersion[];
      legalForms?: string;
      /** The index, when the child could not write `indexFile`. */
      index?: IndexTransfer;
      pid: number;
    }
  | { ok: false; error: unknown; props?: Record<string, unknown> };

/** Loads in the calling thread. */
export async function loadDirectoryInProcess(dir: string, options: IndexOptions): Promise<DirectoryLoad> {
  const statSignature = await directoryStatSignature(dir);
  const fingerprint = await directoryFingerprint(dir);
  const prepared = await prepareLists(dir, options);
  return { statSignature, fingerprint, prepared, pid: process.pid };
}

/** The error the child sent, as it was thrown there (class, message, stack, code, errno, path...). */
function errorFromReply(reply: Extract<ListLoadReply, { ok: false }>): unknown {
  const { error, props } = reply;
  if (error instanceof Error && props) Object.assign(error, props);
  return error;
}

/** The child's niceness (0 = the service's priority, 19 = the lowest). */
const BACKGROUND_NICENESS = 10;

export interface ChildLoadOptions {
  /** Limit of the child's heap in MB (tests: a child that dies). */
  maxOldGenerationSizeMb?: number;
  /** Where the index file goes (default: the system's temporary directory). */
  indexDir?: string;
}

/** The parent's Node options a child needs (type stripping, async context frames), not its debugging or test ones. */
function childExecArgv(options: ChildLoadOptions): string[] {
  const inherited = process.execArgv.filter(
    (a) => !/^--(test|inspect|cpu-prof|heap-prof|heapsnapshot|diagnostic-dir|max-old-space-size)/.test(a),
  );
  return options.maxOldGenerationSizeMb
    ? [...inherited, `--max-old-space-size=${options.maxOldGenerationSizeMb}`]
    : inherited;
}

/** What a child wrote on stderr (V8's fatal errors go there, before their stack), kept short. */
function stderrOf(child: ChildProcess): () => string {
  let text = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    if (text.length < 8000) text += chunk.slice(0, 8000 - text.length);
  });
  return () => text.trim();
}

/** The error of a child that exited without an answer: out of memory, killed, or crashed. */
function exitError(code: number | null, signal: NodeJS.Signals | null, stderr: string): Error {
  const outOfMemory = /heap out of memory|Reached heap limit/.test(stderr);
  const how = outOfMemory
    ? 'ran out of memory'
    : signal
      ? `was killed by ${signal}`
      : `exited with code ${code}`;
  // V8's fatal error names the cause; a stack trace follows it
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const cause = lines.find((l) => /FATAL ERROR|Error\b/.test(l)) ?? lines[0];
  const err = new Error(
    `the process loading the sanctions lists ${how}${cause ? ` (${cause.slice(0, 300)})` : ''}`,
  ) as NodeJS.ErrnoException;
  err.code = outOfMemory ? 'ERR_LIST_LOAD_OUT_OF_MEMORY' : 'ERR_LIST_LOAD_EXITED';
  return err;
}

/**
 * The index as the child wrote it (V8 serialization: typed arrays and strings, no JSON). The file
 * is read into one buffer, and the index's typed arrays, views into that buffer as deserialised,
 * are copied out to buffers of their own (5 MB of arrays, where the file has 16 MB with the lists
 * of shared/data). The file's buffer is then released at once, not left to the collector: garbage
 * by then, it would wait for a full collection, which an idle process does not run, and stayed
 * resident.
 */
async function readIndex(file: string): Promise<IndexTransfer> {
  const bytes = await readFile(file);
  const data = ownBuffers(v8.deserialize(bytes)) as IndexTransfer;
  // a buffer of its own (never one of Buffer's shared pools, which hold other buffers too): detached
  // by a transfer to no bytes, which frees its memory now
  if (bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength) {
    try {
      (bytes.buffer as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
    } catch {
      // not detachable: left to the collector
    }
  }
  return data;
}

/**
 * Gives every typed array of `value` (plain objects, arrays, maps and sets, walked in depth) that is
 * a view into a larger buffer (the file's, or the IPC message's when the child could not write the
 * file) a buffer of its own, so that the larger one can be released. Arrays the deserialiser
 * already copied (unaligned ones) own theirs.
 */
function ownBuffers(value: unknown): unknown {
  if (ArrayBuffer.isView(value))
    return value.byteLength === value.buffer.byteLength ? value : (value as Int32Array).slice();
  if (!value || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = ownBuffers(value[i]);
  } else if (value instanceof Map) {
    for (const [k, v] of value) value.set(k, ownBuffers(v));
  } else if (value instanceof Set) {
    for (const v of [...value]) {
      const own = ownBuffers(v);
      if (own === v) continue;
      value.delete(v);
      value.add(own);
    }
  } else {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = ownBuffers(record[key]);
  }
  return value;
}

const INDEX_FILE_PREFIX = 'vericase-list-index-';

/**
 * Removes index files older than `maxAgeMs` from `directory`: what a service killed between its
 * child's answer and its own read of the file left behind (a child whose service went away removes
 * its file itself). A load takes seconds, so an older file is no one's. Best effort: errors ignored.
 */
export async function removeStaleIndexFiles(directory: string, maxAgeMs = 10 * 60_000): Promise<number> {
  let removed = 0;
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(INDEX_FILE_PREFIX) || !name.endsWith('.bin')) continue;
    const file = path.join(directory, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || Date.now() - info.mtimeMs < maxAgeMs) continue;
    try {
      await rm(file, { force: true });
      removed++;
    } catch {
      // another process's, or gone: nothing to do
    }
  }
  return removed;
}

/**
 * Loads in a new child process, which exits once it has written the index and answered: the promise
 * settles when it has exited (its memory is gone). A child that fails, throws or dies rejects the
 * promise with its error. The index comes through a file in the system's temporary directory, removed
 * once read or once the child has failed: through the IPC channel it arrived in 64 kB reads that
 * stayed in the C heap as 13 MB of an idle service's memory. A child that cannot write the file
 * sends the index through the channel instead; a child whose service went away stops and removes
 * its file; files left by a service killed at the wrong moment are removed by later loads.
 */
export function loadDirectoryInChild(
  dir: string,
  options: IndexOptions,
  childOptions: ChildLoadOptions = {},
): Promise<DirectoryLoad> {
  const indexDir = childOptions.indexDir ?? os.tmpdir();
  const indexFile = path.join(indexDir, `${INDEX_FILE_PREFIX}${process.pid}-${randomUUID()}.bin`);
  void removeStaleIndexFiles(indexDir);
  return new Promise<DirectoryLoad>((resolve, reject) => {
    let reply: ListLoadReply | undefined;
    let failure: unknown;
    const child = fork(workerFile(import.meta.dirname, 'list-load.worker.ts'), [], {
      execArgv: childExecArgv(childOptions),
      // the child inherits the service's compile cache through NODE_COMPILE_CACHE (bin/server-bundle.js)
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    });
    // background work: the service's own start-up and requests come first when the cores are busy
    // (the first answer of a start came 0.3-0.5 s later while the child ran at the same priority)
    if (child.pid !== undefined) {
      try {
        os.setPriority(child.pid, BACKGROUND_NICENESS);
      } catch {
        // not permitted here: it runs at the service's priority
      }
    }
    const stderr = stderrOf(child);
    child.once('message', (message: ListLoadReply) => {
      reply = message;
    });
    child.once('error', (err) => {
      failure ??= err;
    });
    child.send({ dir, options, indexFile } satisfies ListLoadRequest);
    child.once('exit', (code, signal) => {
      if (reply?.ok) {
        const ok = reply;
        (ok.index ? Promise.resolve(ownBuffers(ok.index) as IndexTransfer) : readIndex(indexFile)).then(
          (index) =>
            resolve({
              statSignature: ok.statSignature,
              fingerprint: ok.fingerprint,
              prepared: { index: indexFromTransfer(index), lists: ok.lists, legalForms: ok.legalForms },
              pid: ok.pid,
            }),
          reject,
        );
      } else if (reply) {
        reject(errorFromReply(reply));
      } else {
        reject(failure ?? exitError(code, signal, stderr()));
      }
    });
  }).finally(() => rm(indexFile, { force: true }));
}
