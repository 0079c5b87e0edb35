/**
 * The worker thread of `renderCaseReportOffThread` (render-off-thread.ts): draws the one report it
 * is given, answers with its bytes and ends (its memory with it).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { RenderRequest } from './render-off-thread.ts';
import { renderCaseReport } from './render-report.ts';

if (!parentPort)
  throw new Error('render-report.worker.ts runs as a worker thread (see render-off-thread.ts)');
const { data, timezone, generatedAt } = workerData as RenderRequest;
parentPort.postMessage(await renderCaseReport(data, timezone, generatedAt));
