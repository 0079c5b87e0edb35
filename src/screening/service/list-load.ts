/**
 * Loading the lists of a reference directory: reading and parsing its files and building their index.
 * The service does it in a child process (`loadDirectoryInChild`): parsing takes seconds of CPU that
 * would block the event loop, and it leaves tens of MB behind that a process does not give back
 * (V8's grown heap, and the C heap's arenas: a worker thread's freed buffers stayed in this process,
 * 35 MB of an idle service's memory). A child's memory all goes when it exits. Only the finished index
 * comes back, through the IPC channel (V8 serialization: typed arrays and strings, no JSON).
 *
 * `loadDirectoryInProcess` does the same in the calling process (the child runs it; tools and tests may).
 */
import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
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

/** What the child is sent. */
export interface ListLoadRequest {
  dir: string;
  options: IndexOptions;
}

/** What the child sends back: the load, or the error it failed with. */
export type ListLoadReply =
  | {
      ok: true;
      statSignature: string;
      fingerprint: string;
      lists: ListVersion[];
      legalForms?: string;
      index: IndexTransfer;
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
 * The typed arrays of a deserialised message are views into the one buffer the whole message arrived
 * in (Node's V8 deserializer), which they would keep alive for as long as the index lives: 16 MB of
 * buffers for 5 MB of arrays with the lists of shared/data. Each gets a buffer of its own, and the
 * message's is garbage. Walks plain objects (the index's parts), not arrays.
 */
function ownBuffers<T extends object>(value: T): T {
  for (const [key, v] of Object.entries(value)) {
    if (ArrayBuffer.isView(v)) {
      if (v.byteLength !== v.buffer.byteLength)
        (value as Record<string, unknown>)[key] = (v as Int32Array).slice();
    } else if (
      v &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      Object.getPrototypeOf(v) === Object.prototype
    ) {
      ownBuffers(v);
    }
  }
  return value;
}

/**
 * Loads in a new child process, which exits once it has sent the index: the promise settles when it
 * has exited (its memory is gone). A child that fails, throws or dies rejects the promise with its error.
 */
export function loadDirectoryInChild(
  dir: string,
  options: IndexOptions,
  childOptions: ChildLoadOptions = {},
): Promise<DirectoryLoad> {
  return new Promise((resolve, reject) => {
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
    child.send({ dir, options } satisfies ListLoadRequest);
    child.once('exit', (code, signal) => {
      if (reply?.ok) {
        try {
          resolve({
            statSignature: reply.statSignature,
            fingerprint: reply.fingerprint,
            prepared: {
              index: indexFromTransfer(ownBuffers(reply.index)),
              lists: reply.lists,
              legalForms: reply.legalForms,
            },
            pid: reply.pid,
          });
        } catch (err) {
          reject(err);
        }
      } else if (reply) {
        reject(errorFromReply(reply));
      } else {
        reject(failure ?? exitError(code, signal, stderr()));
      }
    });
  });
}
