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

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, { resolve(v: FaceResult): void; reject(e: Error): void }>();
let idleTimer: NodeJS.Timeout | undefined;

type FaceResult = { faces: DetectedFace[]; quarters: number };

function failAll(err: Error): void {
  for (const p of pending.values()) p.reject(err);
  pending.clear();
}

function thread(): Worker {
  if (worker) return worker;
  const w = new Worker(workerFile(import.meta.dirname, 'face-model.worker.ts'));
  w.on('message', (answer: FaceAnswer) => {
    const p = pending.get(answer.id);
    if (!p) return;
    pending.delete(answer.id);
    if ('error' in answer) p.reject(new Error(answer.error));
    else p.resolve(answer.result);
    if (pending.size === 0) idle(w);
  });
  // a thread that died (out of memory, a crash in the model) fails what it held; the next call starts another
  w.on('error', (err) => {
    if (worker === w) worker = null;
    failAll(err);
  });
  w.on('exit', (code) => {
    if (worker === w) worker = null;
    failAll(new Error(`the face model's thread stopped (exit code ${code})`));
  });
  worker = w;
  return w;
}

/** No request waiting: the process may exit without it, and it ends after IDLE_MS. */
function idle(w: Worker): void {
  w.unref();
  clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    if (worker === w && pending.size === 0) {
      worker = null;
      void w.terminate();
    }
  }, IDLE_MS);
  idleTimer.unref();
}

/** `detectFacesUpright` (face-model.ts) run in the face model's thread. */
export function detectFacesUprightOffThread(image: RgbImage, maxFaces = 10): Promise<FaceResult> {
  const w = thread();
  clearTimeout(idleTimer);
  w.ref(); // a request waits for it: the process must not exit under it
  const id = nextId++;
  return new Promise<FaceResult>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    w.postMessage({ id, image, maxFaces } satisfies FaceRequest);
  });
}

/** Ends the face model's thread (tests, shutdown); the next detection starts a new one. */
export async function shutdownFaceThread(): Promise<void> {
  clearTimeout(idleTimer);
  const w = worker;
  worker = null;
  if (w) await w.terminate();
}
