import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'tesseract.js';
import { lazyImport } from '../../../../shared/lazy-module.ts';

// loaded with the first OCR job (src/shared/lazy-module.ts)
const loadTesseract = lazyImport(() => import('tesseract.js'));

/**
 * OCR of an image with tesseract.js and the English and French trained data shipped in the
 * `@tesseract.js-data/eng` and `/fra` packages (read from disk, nothing downloaded). One worker per
 * process, created on first use and reused; jobs run one at a time through it. A job that takes
 * longer than the time limit terminates the worker (the next job starts a fresh one) and gives null.
 */

export const OCR_TIMEOUT_MS = 60_000;
/** An idle worker is ended after this long, giving its memory back (the next OCR starts another, ~0.5 s). */
export const OCR_IDLE_MS = 10 * 60_000;
export const OCR_LANGUAGES = ['eng', 'fra'] as const;

const require = createRequire(import.meta.url);

let langDir: string | null = null;

/**
 * One folder holding the trained data of every language: tesseract.js reads all languages from a
 * single `langPath`, and each package ships its own folder, so the files are copied into a
 * temporary folder once per process.
 */
function languageFolder(): string {
  // (made again if something, a temporary-files cleaner say, removed it since)
  if (
    langDir &&
    OCR_LANGUAGES.every((code) => existsSync(path.join(langDir as string, `${code}.traineddata.gz`)))
  )
    return langDir;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'vericase-tessdata-'));
  for (const code of OCR_LANGUAGES) {
    const pkg = path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
    const file = `${code}.traineddata.gz`;
    copyFileSync(path.join(pkg, '4.0.0_best_int', file), path.join(dir, file));
  }
  if (!langDir) process.once('exit', () => langDir && rmSync(langDir, { recursive: true, force: true }));
  langDir = dir;
  return dir;
}

let workerPromise: Promise<Worker> | null = null;
let queue: Promise<unknown> = Promise.resolve();

function getWorker(): Promise<Worker> {
  if (!workerPromise) {
    workerPromise = loadTesseract()
      .then(({ createWorker }) =>
        createWorker(OCR_LANGUAGES.join('+'), 1, {
          langPath: languageFolder(),
          cacheMethod: 'none',
          gzip: true,
          // a failed job (an image libpng cannot decode...) rejects its own promise; without a
          // handler tesseract.js also throws it from its message listener: an uncaught exception
          // that stopped the whole process
          errorHandler: () => undefined,
        }),
      )
      .catch((err) => {
        workerPromise = null;
        throw err;
      });
  }
  return workerPromise;
}

async function dropWorker(): Promise<void> {
  const p = workerPromise;
  workerPromise = null;
  if (p) await p.then((w) => w.terminate()).catch(() => undefined);
}

export interface OcrResult {
  text: string;
  /** Mean word confidence, 0..100. */
  confidence: number;
}

async function runOcr(image: Buffer, timeoutMs: number): Promise<OcrResult | null> {
  const worker = await getWorker();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const result = await Promise.race([worker.recognize(image), timeout]);
    if (result === 'timeout') {
      await dropWorker();
      return null;
    }
    return { text: result.data.text ?? '', confidence: result.data.confidence ?? 0 };
  } catch {
    // the worker failed on this image: the next job gets a fresh one
    await dropWorker();
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** Text of an image (PNG, JPEG...), or null when the OCR failed or ran out of time. */
export function ocrImage(image: Buffer, timeoutMs = OCR_TIMEOUT_MS): Promise<OcrResult | null> {
  pending++;
  clearTimeout(idleTimer);
  const job = queue.then(
    () => runOcr(image, timeoutMs),
    () => runOcr(image, timeoutMs),
  );
  queue = job.catch(() => undefined);
  return job
    .catch(() => null)
    .finally(() => {
      pending--;
      if (pending > 0) return;
      idleTimer = setTimeout(() => {
        if (pending === 0) void dropWorker();
      }, OCR_IDLE_MS);
      idleTimer.unref(); // never keeps the process alive
    });
}

let pending = 0;
let idleTimer: NodeJS.Timeout | undefined;

/** Ends the process's OCR worker (tests, benches, shutdown); the next OCR starts a new one. */
export async function shutdownOcr(): Promise<void> {
  await queue.catch(() => undefined);
  clearTimeout(idleTimer);
  await dropWorker();
}
