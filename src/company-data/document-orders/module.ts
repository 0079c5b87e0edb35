import type { Module } from '../../modules.ts';
import { processDocumentOrder } from './process-document-order.ts';
import { DOCUMENT_ORDER_QUEUE, DOCUMENT_ORDER_RETRIES } from './queues.ts';

/** Document orders: the job that produces an ordered document (or records why it failed). */
export const documentOrdersModule: Module = {
  name: 'document-orders',
  install(ctx) {
    ctx.jobs.define<{ orderId: string }>({
      name: DOCUMENT_ORDER_QUEUE,
      handler: (data, meta) => processDocumentOrder(ctx, data, meta),
      retryLimit: DOCUMENT_ORDER_RETRIES,
      retryDelaySeconds: 5,
      retryDelayMaxSeconds: 300,
      // a run whose process died is retried after this (a registry call is bounded by its timeouts)
      expireInSeconds: 300,
    });
  },
};
