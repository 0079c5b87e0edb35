import { Worker } from 'node:worker_threads';
import { workerFile } from '../../shared/worker-file.ts';
import type { ReportData } from '../load-report-data.ts';

/** Render threads of this process now, and the most at once since it started (the queue bounds it). */
export const renderThreads = { running: 0, peak: 0 };

export interface RenderRequest {
  data: ReportData;
  timezone: string;
  generatedAt: Date;
}

/**
 * `renderCaseReport` in a worker thread of its own. Drawing a report is CPU work with no await in
 * it (pdf-lib, fontkit measuring every word): 1.5-1.9 s for a case of 200 entities, during which
 * the process answered nothing. With the workers in the API process (the default), five reports of
 * a large case held unrelated requests, a 400 included, for up to 11 s (bad-input walk). The thread
 * starts for one report and ends with it: nothing stays resident between reports.
 */
export function renderCaseReportOffThread(
  data: ReportData,
  timezone: string,
  generatedAt: Date,
): Promise<Buffer> {
  renderThreads.running++;
  renderThreads.peak = Math.max(renderThreads.peak, renderThreads.running);
  return new Promise<Buffer>((resolve, reject) => {
    const worker = new Worker(workerFile(import.meta.dirname, 'render-report.worker.ts'), {
      workerData: { data, timezone, generatedAt } satisfies RenderRequest,
    });
    let bytes: Buffer | null = null;
    worker.once('message', (answer: Uint8Array) => {
      // a Buffer arrives as a plain Uint8Array: the same bytes, without a copy
      bytes = Buffer.from(answer.buffer, answer.byteOffset, answer.byteLength);
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      renderThreads.running--;
      if (bytes) resolve(bytes);
      else reject(new Error(`the case report's renderer stopped without a PDF (exit code ${code})`));
    });
  });
}
