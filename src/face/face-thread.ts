import { Worker } from 'node:worker_threads';
import { workerFile } from '../shared/worker-file.ts';
import type { RgbImage } from './decode-image.ts';
import type { DetectedFace } from './face-model.ts';
import type { FaceAnswer, FaceRequest } from './face-model.worker.ts';

/**
 * The face model in a worker thread of its own. A detection is CPU work in WebAssembly with no
 * await that yields: on the main thread, four id_verification runs at once held `/healthz` for up
 * to 0.8 s (p99 0.65 s) while the workers ran in the API process (`npm start`'s default). The
 * thread loads the model on its first request and serves the ones after it (loading takes about a
 * second); it ends after a minute without work, and the model's memory (about 100 MB) with it.
 */
const IDLE_MS = 60_000;

type FaceResult = { faces: DetectedFace[]; quarters: number };
type Waiting = Map<number, { resolve(v: FaceResult): void; reject(e: Error): void }>;

// the requests each thread holds are its own: a thread ending idle (its exit comes after its
// successor may have started) fails only what it held, never the next thread's requests
let worker: { thread: Worker; pending: Waiting } | null = null;
let nextId = 1;
let idleTimer: NodeJS.Timeout | undefined;

function failAll(pending: Waiting, err: Error): void {
  for (const p of pending.values()) p.reject(err);
  pending.clear();
}

function thread(): { thread: Worker; pending: Waiting } {
  if (worker) return worker;
  const w = new Worker(workerFile(import.meta.dirname, 'face-model.worker.ts'));
  const own = { thread: w, pending: new Map() as Waiting };
  w.on('message', (answer: FaceAnswer) => {
    const p = own.pending.get(answer.id);
    if (!p) return;
    own.pending.delete(answer.id);
    if ('error' in answer) p.reject(new Error(answer.error));
    else p.resolve(answer.result);
    if (own.pending.size === 0) idle(own);
  });
  // a thread that died (out of memory, a crash in the model) fails what it held; the next call starts another
  w.on('error', (err) => {
    if (worker === own) worker = null;
    failAll(own.pending, err);
  });
  w.on('exit', (code) => {
    if (worker === own) worker = null;
    failAll(own.pending, new Error(`the face model's thread stopped (exit code ${code})`));
  });
  worker = own;
  return own;
}

/** No request waiting: the process may exit without it, and it ends after IDLE_MS. */
function idle(own: { thread: Worker; pending: Waiting }): void {
  own.thread.unref();
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (worker === own && own.pending.size === 0) {
      worker = null;
      void own.thread.terminate();
    }
  }, IDLE_MS);
  idleTimer.unref();
}

/** `detectFacesUpright` (face-model.ts) run in the face model's thread. */
export function detectFacesUprightOffThread(image: RgbImage, maxFaces = 10): Promise<FaceResult> {
  const own = thread();
  clearTimeout(idleTimer);
  own.thread.ref(); // a request waits for it: the process must not exit under it
  const id = nextId++;
  return new Promise<FaceResult>((resolve, reject) => {
    own.pending.set(id, { resolve, reject });
    own.thread.postMessage({ id, image, maxFaces } satisfies FaceRequest);
  });
}

/** Ends the face model's thread (tests, shutdown); the next detection starts a new one. */
export async function shutdownFaceThread(): Promise<void> {
  clearTimeout(idleTimer);
  const own = worker;
  worker = null;
  if (own) await own.thread.terminate();
}
