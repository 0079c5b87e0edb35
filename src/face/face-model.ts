import { createRequire } from 'node:module';
import path from 'node:path';
import type { RgbImage } from './decode-image.ts';
import { rotate } from './orientation.ts';

// The on-device face model: face-api (@vladmandic/face-api, MIT) on TensorFlow.js's WebAssembly
// backend. Everything comes from node_modules: the JavaScript, the .wasm binaries
// (@tensorflow/tfjs-backend-wasm/dist) and the weights (@vladmandic/face-api/model). Nothing is
// fetched at run time. Three networks are used:
// - SSD MobileNet v1 (face detection, 5.4 MB),
// - the 68-point landmark net (alignment before description, 350 kB),
// - the recognition net (a port of dlib's ResNet-34 face descriptor, 128 numbers per face, 6.2 MB).
// Loaded once per process, on first use (a worker job), never in an API request.

const require = createRequire(import.meta.url);

/** One face found in an image: its detection score, box (pixels) and 128-number descriptor. */
export interface DetectedFace {
  score: number;
  box: { x: number; y: number; width: number; height: number };
  descriptor: Float32Array;
}

// the few face-api calls used here (its bundled types pull in all of TensorFlow.js's)
interface FaceApi {
  tf: {
    setWasmPaths(prefix: string): void;
    setBackend(name: string): Promise<boolean>;
    ready(): Promise<void>;
    getBackend(): string;
    tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void };
  };
  nets: Record<
    'ssdMobilenetv1' | 'faceLandmark68Net' | 'faceRecognitionNet',
    { loadFromDisk(dir: string): Promise<void> }
  >;
  SsdMobilenetv1Options: new (o: { minConfidence: number; maxResults: number }) => unknown;
  detectAllFaces(
    input: unknown,
    options: unknown,
  ): {
    withFaceLandmarks(): {
      withFaceDescriptors(): Promise<
        {
          detection: { score: number; box: { x: number; y: number; width: number; height: number } };
          descriptor: Float32Array;
        }[]
      >;
    };
  };
}

/** Faces scored under this by the detector are not faces (face-api's own default is 0.5). */
export const MIN_DETECTION_SCORE = 0.5;

let loading: Promise<FaceApi> | null = null;

/** The package directory of an installed dependency (its `main` resolved, then up to the folder). */
function packageDir(name: string, mainRelative: string): string {
  const main = require.resolve(name);
  return main.slice(0, main.length - mainRelative.length);
}

async function load(): Promise<FaceApi> {
  const faceApiDir = packageDir('@vladmandic/face-api', path.join('dist', 'face-api.node.js'));
  // the WebAssembly build of face-api: it imports @tensorflow/tfjs and @tensorflow/tfjs-backend-wasm
  const api = require(path.join(faceApiDir, 'dist', 'face-api.node-wasm.js')) as FaceApi;
  const wasmMain = require.resolve('@tensorflow/tfjs-backend-wasm');
  api.tf.setWasmPaths(`${path.dirname(wasmMain)}${path.sep}`);
  if (!(await api.tf.setBackend('wasm')))
    throw new Error('the TensorFlow.js WebAssembly backend did not start');
  await api.tf.ready();
  const modelDir = path.join(faceApiDir, 'model');
  await api.nets.ssdMobilenetv1.loadFromDisk(modelDir);
  await api.nets.faceLandmark68Net.loadFromDisk(modelDir);
  await api.nets.faceRecognitionNet.loadFromDisk(modelDir);
  return api;
}

/** face-api, loaded on first use; a failed load is retried by the next call. */
export function faceApi(): Promise<FaceApi> {
  if (!loading) {
    loading = load().catch((err) => {
      loading = null;
      throw err;
    });
  }
  return loading;
}

/** Every face of an image (up to `maxFaces`), best score first. */
export async function detectFaces(image: RgbImage, maxFaces = 10): Promise<DetectedFace[]> {
  const api = await faceApi();
  const tensor = api.tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
  try {
    const found = await api
      .detectAllFaces(
        tensor,
        new api.SsdMobilenetv1Options({ minConfidence: MIN_DETECTION_SCORE, maxResults: maxFaces }),
      )
      .withFaceLandmarks()
      .withFaceDescriptors();
    return found
      .map((f) => ({
        score: f.detection.score,
        box: {
          x: f.detection.box.x,
          y: f.detection.box.y,
          width: f.detection.box.width,
          height: f.detection.box.height,
        },
        descriptor: f.descriptor,
      }))
      .sort((a, b) => b.score - a.score);
  } finally {
    tensor.dispose();
  }
}

/**
 * The faces of an image as given, else of the image turned a quarter either way, else upside
 * down: a card photographed in portrait lies on its side. The turns cost a detection each, only
 * when nothing was found.
 */
export async function detectFacesUpright(
  image: RgbImage,
  maxFaces = 10,
): Promise<{ faces: DetectedFace[]; quarters: number }> {
  for (const quarters of [0, 1, 3, 2]) {
    const faces = await detectFaces(quarters ? rotate(image, quarters) : image, maxFaces);
    if (faces.length) return { faces, quarters };
  }
  return { faces: [], quarters: 0 };
}
