/**
 * Loading the lists of a reference directory: reading and parsing its files and building their index.
 * The service does it in a worker thread (`loadDirectoryInWorker`): parsing takes seconds of CPU that
 * would block the event loop, and the garbage and heap growth it leaves (tens of MB that V8 does not give
 * back) go with the worker's heap when it exits. Only the finished index comes back: its typed arrays are
 * transferred, its strings cloned (build.ts `indexTransfer`).
 *
 * `loadDirectoryInProcess` does the same in the calling thread (the worker runs it; tools and tests may).
 */
import { threadId, Worker } from 'node:worker_threads';
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
  /** The thread that read and parsed the lists (0: the main thread). */
  threadId: number;
}

export type LoadDirectory = (dir: string, options: IndexOptions) => Promise<DirectoryLoad>;

/** What the worker is given (workerData). */
export interface ListLoadRequest {
  dir: string;
  options: IndexOptions;
}

/** What the worker posts back: the load, or the error it failed with. */
export type ListLoadReply =
  | {
      ok: true;
      statSignature: string;
      fingerprint: string;
      lists: ListVersion[];
      legalForms?: string;
      index: IndexTransfer;
      threadId: number;
    }
  | { ok: false; error: unknown; props?: Record<string, unknown> };

/** Loads in the calling thread. */
export async function loadDirectoryInProcess(dir: string, options: IndexOptions): Promise<DirectoryLoad> {
  const statSignature = await directoryStatSignature(dir);
  const fingerprint = await directoryFingerprint(dir);
  const prepared = await prepareLists(dir, options);
  return { statSignature, fingerprint, prepared, threadId };
}

/** The error the worker posted, as it was thrown there (class, message, stack, code, errno, path...). */
function errorFromReply(reply: Extract<ListLoadReply, { ok: false }>): unknown {
  const { error, props } = reply;
  if (error instanceof Error && props) Object.assign(error, props);
  return error;
}

export interface WorkerLoadOptions {
  /** Limits of the worker's heap (tests: a worker that dies). */
  resourceLimits?: import('node:worker_threads').ResourceLimits;
}

/**
 * Loads in a new worker thread, which exits once it has sent the index: the promise settles when it has
 * exited (its heap is gone). A worker that fails, throws or dies rejects the promise with its error.
 */
export function loadDirectoryInWorker(
  dir: string,
  options: IndexOptions,
  workerOptions: WorkerLoadOptions = {},
): Promise<DirectoryLoad> {
  return new Promise((resolve, reject) => {
    let reply: ListLoadReply | undefined;
    let failure: unknown;
    const worker = new Worker(workerFile(import.meta.dirname, 'list-load.worker.ts'), {
      workerData: { dir, options } satisfies ListLoadRequest,
      resourceLimits: workerOptions.resourceLimits,
    });
    worker.once('message', (message: ListLoadReply) => {
      reply = message;
    });
    worker.once('error', (err) => {
      failure ??= err;
    });
    worker.once('exit', (code) => {
      if (reply?.ok) {
        try {
          resolve({
            statSignature: reply.statSignature,
            fingerprint: reply.fingerprint,
            prepared: {
              index: indexFromTransfer(reply.index),
              lists: reply.lists,
              legalForms: reply.legalForms,
            },
            threadId: reply.threadId,
          });
        } catch (err) {
          reject(err);
        }
      } else if (reply) {
        reject(errorFromReply(reply));
      } else {
        reject(
          failure ?? new Error(`the worker thread loading the sanctions lists exited with code ${code}`),
        );
      }
    });
  });
}
