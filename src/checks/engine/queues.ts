/** Job queues of the check engine. */
export const PROCESS_QUEUE = 'checks.process';
export const EXPIRE_QUEUE = 'checks.expire';
