/** Job queue of document orders: one job per order, producing its file (or its failure). */
export const DOCUMENT_ORDER_QUEUE = 'company-data.document-order';

/** Runs of an order's job after the first, while the registry is unavailable; then the order fails. */
export const DOCUMENT_ORDER_RETRIES = 5;
