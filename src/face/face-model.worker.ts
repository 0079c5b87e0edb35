/**
 * The worker thread of the face model (face-thread.ts): loads the model once, then answers each
 * `{id, image, maxFaces}` with the faces `detectFacesUpright` finds, or the error it met.
 */
import { parentPort } from 'node:worker_threads';
import type { RgbImage } from './decode-image.ts';
import { detectFacesUpright } from './face-model.ts';

export interface FaceRequest {
  id: number;
  image: RgbImage;
  maxFaces: number;
}

export type FaceAnswer =
  | { id: number; result: Awaited<ReturnType<typeof detectFacesUpright>> }
  | { id: number; error: string };

const port = parentPort;
if (!port) throw new Error('face-model.worker.ts runs as a worker thread (see face-thread.ts)');
port.on('message', async ({ id, image, maxFaces }: FaceRequest) => {
  try {
    port.postMessage({ id, result: await detectFacesUpright(image, maxFaces) } satisfies FaceAnswer);
  } catch (err) {
    port.postMessage({ id, error: (err as Error).message ?? String(err) } satisfies FaceAnswer);
  }
});
